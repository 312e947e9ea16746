import Testing
@testable import ClonerHTTP

@Suite struct TrustedProxiesTests {
    @Test func addressesAndRangesOfBothFamilies() throws {
        let trusted = try TrustedProxies(["127.0.0.1", " 10.0.0.0/8 ", "192.168.4.0/23", "2001:db8::/32", "::1"])
        for inside in ["127.0.0.1", "10.255.0.9", "192.168.5.200", "2001:db8:ffff::1", "::1", "::ffff:10.1.2.3"] {
            #expect(trusted.contains(host: inside), "\(inside)")
        }
        for outside in ["127.0.0.2", "11.0.0.1", "192.168.6.1", "2001:db9::1", "::2", "unknown", "", "10.0.0.1:80"] {
            #expect(!trusted.contains(host: outside), "\(outside)")
        }
        #expect(trusted.description == "127.0.0.1, 10.0.0.0/8, 192.168.4.0/23, 2001:db8::/32, ::1")
        #expect(try TrustedProxies(["0.0.0.0/0"]).contains(host: "203.0.113.9"))
        #expect(!(try TrustedProxies(["0.0.0.0/0"])).contains(host: "2001:db8::1"), "an IPv4 range holds no IPv6 address")
        #expect(TrustedProxies().isEmpty && !TrustedProxies().contains(host: "127.0.0.1"))
    }

    @Test func badEntriesSayWhy() {
        let cases: [(String, String)] = [
            ("localhost", "expected an IPv4 or IPv6 address"),
            ("", "expected an IPv4 or IPv6 address"),
            ("10.0.0.0/33", "0–32"),
            ("2001:db8::/129", "0–128"),
            ("10.0.0.0/", "prefix length"),
            ("10.0.0.0/8x", "prefix length"),
            ("10.0.0.1/8", "the range is 10.0.0.0/8"),
        ]
        for (entry, fragment) in cases {
            do {
                _ = try TrustedProxies([entry])
                Issue.record("accepted \(entry)")
            } catch {
                #expect(error.entry == entry)
                #expect(error.reason.contains(fragment), "\(entry): \(error.reason)")
            }
        }
    }
}
