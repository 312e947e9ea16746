import ClonerModel
import Foundation
import Testing

@Suite("Exact decimals: canonical text, limits, numeric order")
struct ExactDecimalTests {
    @Test func canonicalText() throws {
        let cases: [(String, String)] = [
            ("0", "0"), ("-0", "0"), ("000.000", "0"), ("12.50", "12.5"), ("12.5", "12.5"), ("1.25e1", "12.5"), ("-0.10", "-0.1"),
            (".5", "0.5"), ("5.", "5"), ("1E+3", "1000"), ("123e-5", "0.00123"), ("-7", "-7"), ("0.0e99999999999", "0"),
            ("12345678901234567890.123456789", "12345678901234567890.123456789"),
            ("1e127", "1" + String(repeating: "0", count: 127)),
            ("1e-128", "0." + String(repeating: "0", count: 127) + "1"),
            // NSDecimal shifts a short mantissa: 10^164 is 38 digits times 10^127.
            ("1e164", "1" + String(repeating: "0", count: 164)),
        ]
        for (text, canonical) in cases {
            #expect(try ExactDecimal(parsing: text).text == canonical, "\(text)")
        }
        #expect(try ExactDecimal(parsing: "12.50") == ExactDecimal(parsing: "12.5"))
    }

    @Test func refusals() {
        let cases: [(String, ExactDecimal.ParseFailure)] = [
            ("", .notADecimal), ("abc", .notADecimal), ("NaN", .notADecimal), ("Infinity", .notADecimal), ("+1", .notADecimal),
            (" 1", .notADecimal), ("1 ", .notADecimal), ("1,5", .notADecimal), ("1..2", .notADecimal), ("1e", .notADecimal), (".", .notADecimal),
            ("-", .notADecimal), ("0x10", .notADecimal), ("1e999999", .outOfRange), ("1e-129", .outOfRange), ("1e165", .outOfRange),
            (String(repeating: "9", count: 39), .tooManyDigits(39)), ("1.00000000000000000000000000000000000001", .tooManyDigits(39)),
        ]
        for (text, failure) in cases {
            #expect(throws: failure, "\(text)") { try ExactDecimal(parsing: text) }
        }
        // Zeros do not count: 38 significant digits with zeros around them fit.
        #expect((try? ExactDecimal(parsing: "000" + String(repeating: "9", count: 38) + ".000")) != nil)
    }

    @Test func orderIsNumeric() throws {
        let ascending = ["-100", "-10", "-9.99", "-1", "-0.5", "-0.05", "0", "0.001", "0.01", "0.5", "1", "9", "10", "10.01", "100"]
        let values = try ascending.map { try ExactDecimal(parsing: $0) }
        #expect(values.shuffled().sorted() == values)
        for (index, value) in values.enumerated() {
            #expect(!(value < value))
            if index > 0 { #expect(values[index - 1] < value, "\(values[index - 1]) < \(value)") }
        }
    }

    /// The collation reads any text a column holds: equal numbers written apart are equal, and
    /// text that is no number sorts after every number, so the order stays total.
    @Test func textComparisonToleratesHandWrittenText() {
        func compare(_ a: String, _ b: String) -> Int {
            var a = a
            var b = b
            return a.withUTF8 { left in b.withUTF8 { right in ExactDecimal.compareTexts(left, right) } }
        }
        #expect(compare("1.50", "1.5") == 0)
        #expect(compare("-0", "0") == 0 && compare("0.000", "0") == 0)
        #expect(compare("007", "10") == -1)
        #expect(compare("9", "10") == -1 && compare("10", "9") == 1)
        #expect(compare("-2", "-10") == 1)
        #expect(compare("abc", "99999") == 1 && compare("-5", "abc") == -1)
        #expect(compare("abc", "abd") == -1 && compare("", "0") == 1)
        #expect(compare("1.", "1") == 1, "not a number as written: after the numbers")
    }

    @Test func jsonNumbersKeepTheirDigitsForDecimals() throws {
        // A double gives back a short number, so it stays one; a long one keeps its text.
        #expect(try JSONValue(parsing: "12.50") == .double(12.5))
        #expect(try JSONValue(parsing: "0.30000000000000004") == .double(0.1 + 0.2))
        #expect(try JSONValue(parsing: "12345678901234567890.123456789") == .preciseNumber("12345678901234567890.123456789"))
        #expect(try JSONValue(parsing: "1e-400") == .preciseNumber("1e-400"))
        #expect(
            try AttributeValue.decode(json: JSONValue(parsing: "12345678901234567890.123456789"), type: .decimal)
                == .decimal(try ExactDecimal(parsing: "12345678901234567890.123456789")))
        #expect(try AttributeValue.decode(json: JSONValue(parsing: "12.50"), type: .decimal) == .decimal(try ExactDecimal(parsing: "12.5")))
        #expect(try AttributeValue.decode(json: .integer(-3), type: .decimal) == .decimal(ExactDecimal(-3)))
        // Every other type reads the long number as the double it rounds to, as before.
        #expect(try AttributeValue.decode(json: JSONValue(parsing: "0.1000000000000000000001"), type: .double) == .double(0.1))
        #expect(try AttributeValue.decode(json: JSONValue(parsing: "1e-400"), type: .double) == .double(0))
        #expect(try AttributeValue.decode(json: JSONValue(parsing: "[0.1000000000000000000001]"), type: .json) == .json("[0.1000000000000000000001]"))
        #expect(try AttributeValue.decode(json: AttributeValue.decimal(try ExactDecimal(parsing: "1")).jsonValue, type: .decimal) == .decimal(ExactDecimal(1)))
        #expect(AttributeValue.decimal(try ExactDecimal(parsing: "-0.10")).jsonValue == .string("-0.1"))
    }

    @Test func modelFilesNameTheType() throws {
        let model = try ModelLoader.load(
            data: Data(
                #"{"entities": [{"name": "Price", "attributes": [{"name": "amount", "type": "decimal", "default": "12.50"}, {"name": "rate", "type": "decimal", "optional": true, "default": 0.125}]}]}"#
                    .utf8), path: "m.json")
        let price = try #require(model.entity(named: "Price"))
        #expect(price.attribute(named: "amount")?.type == .decimal)
        #expect(price.attribute(named: "amount")?.defaultValue == .decimal(try ExactDecimal(parsing: "12.5")))
        #expect(price.attribute(named: "rate")?.defaultValue == .decimal(try ExactDecimal(parsing: "0.125")))
    }

    @Test func coreDataDecimalsWithTheirDefaults() throws {
        let model = try ModelLoader.load(contentsOf: CoreDataModelTests.fixtures.appendingPathComponent("Prices.xcdatamodeld"))
        let invoice = try #require(model.entity(named: "Invoice"))
        #expect(invoice.attribute(named: "total")?.type == .decimal && invoice.attribute(named: "total")?.isOptional == false)
        #expect(invoice.attribute(named: "total")?.defaultValue == .decimal(.zero))
        #expect(invoice.attribute(named: "discount")?.defaultValue == .decimal(try ExactDecimal(parsing: "12.5")))
        #expect(model.entity(named: "Line")?.attribute(named: "price")?.type == .decimal)
        // A default that is no decimal is named in Xcode's terms.
        let xml = CoreDataModelTests.contents(
            #"<entity name="Invoice" syncable="YES"><attribute name="total" attributeType="Decimal" defaultValueString="12,5"/></entity>"#)
        let (url, cleanUp) = try CoreDataModelTests.modelFolder(xml)
        defer { cleanUp() }
        #expect(throws: ModelError.self) { try ModelLoader.load(contentsOf: url) }
        do {
            _ = try ModelLoader.load(contentsOf: url)
        } catch {
            #expect(error.description.contains("Invoice.total: default value \"12,5\" is not a decimal number"), "\(error)")
            #expect(error.description.contains("Default Value"), "\(error)")
        }
    }
}
