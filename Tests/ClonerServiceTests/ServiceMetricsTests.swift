@testable import ClonerService
import Testing

@Suite struct ServiceMetricsTests {
    func text(_ metrics: ServiceMetrics) -> String { String(decoding: metrics.render(), as: UTF8.self) }

    @Test func rendersRequestCountersAndHistograms() {
        let metrics = ServiceMetrics()
        metrics.recordRequest(route: "/{collection}/{id}", method: "GET", status: 200, duration: .milliseconds(3))
        metrics.recordRequest(route: "/{collection}/{id}", method: "GET", status: 200, duration: .milliseconds(40))
        metrics.recordRequest(route: "/{collection}/{id}", method: "GET", status: 404, duration: .milliseconds(1))
        let output = text(metrics)
        #expect(output.contains("# TYPE http_requests_total counter"))
        #expect(output.contains(#"http_requests_total{route="/{collection}/{id}",method="GET",status="200"} 2"#), "\(output)")
        #expect(output.contains(#"http_requests_total{route="/{collection}/{id}",method="GET",status="404"} 1"#))
        #expect(output.contains("# TYPE http_request_duration_seconds histogram"))
        #expect(output.contains(#"http_request_duration_seconds_bucket{route="/{collection}/{id}",method="GET",le="0.005"} 2"#), "\(output)")
        #expect(output.contains(#"http_request_duration_seconds_bucket{route="/{collection}/{id}",method="GET",le="0.05"} 3"#))
        #expect(output.contains(#"http_request_duration_seconds_count{route="/{collection}/{id}",method="GET"} 3"#))
        #expect(output.contains(#"http_request_duration_seconds_sum{route="/{collection}/{id}",method="GET"} 0.044"#), "\(output)")
    }

    @Test func rendersCloneMetricsAndJobGauge() {
        let metrics = ServiceMetrics()
        metrics.recordClone(result: .succeeded, objects: 2001, duration: .milliseconds(1200))
        metrics.recordClone(result: .failed, objects: 0, duration: .milliseconds(10))
        metrics.jobStarted()
        metrics.jobStarted()
        metrics.jobFinished()
        let output = text(metrics)
        #expect(output.contains(#"cloner_clones_total{result="succeeded"} 1"#), "\(output)")
        #expect(output.contains(#"cloner_clones_total{result="failed"} 1"#))
        #expect(output.contains(#"cloner_clones_total{result="dry_run"} 0"#), "every result is exported from the start")
        #expect(output.contains("cloner_objects_cloned_total 2001"))
        #expect(output.contains("cloner_clone_duration_seconds_count 2"))
        #expect(output.contains(#"cloner_clone_duration_seconds_bucket{le="2.5"} 2"#), "\(output)")
        #expect(output.contains(#"cloner_clone_duration_seconds_bucket{le="1.0"} 1"#))
        #expect(output.contains("cloner_jobs_in_flight 1.0\n"), "\(output)")
    }

    @Test func instancesAreIndependent() {
        let first = ServiceMetrics(), second = ServiceMetrics()
        first.recordClone(result: .succeeded, objects: 5, duration: .milliseconds(1))
        #expect(text(first).contains("cloner_objects_cloned_total 5"))
        #expect(!text(second).contains("cloner_objects_cloned_total 5"))
    }

    @Test func concurrentRecordingCountsEveryRequest() async {
        let metrics = ServiceMetrics()
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<8 {
                group.addTask {
                    for _ in 0..<500 {
                        metrics.recordRequest(route: "/healthz", method: "GET", status: task % 2 == 0 ? 200 : 503, duration: .microseconds(100))
                    }
                }
            }
        }
        let output = text(metrics)
        #expect(output.contains(#"http_requests_total{route="/healthz",method="GET",status="200"} 2000"#))
        #expect(output.contains(#"http_requests_total{route="/healthz",method="GET",status="503"} 2000"#))
        #expect(output.contains(#"http_request_duration_seconds_count{route="/healthz",method="GET"} 4000"#))
    }
}
