import Foundation
import Testing
@testable import TactusCore

/// The ramps' logarithm and exponential, written for the real-time checker,
/// against the C library's log1p and expm1.
@Suite("Real-time ln(1 + x) and eˣ − 1")
struct RealtimeMathTests {
    static let points: [Double] = [-0.999_999, -0.9, -0.5, -0.3, -0.29, -0.1, -1e-9, -1e-300, 0, 1e-12, 1e-6, 0.01, 0.4, 0.41, 0.5, 1,
                                   2.5, 3, 10, 998, 1e6]

    @Test("ln(1 + x) within 4 units in the last place of log1p", arguments: points)
    func logOnePlus(x: Double) {
        let ours = RealtimeMath.logOnePlus(x), libm = log1p(x)
        #expect(abs(ours - libm) <= 4 * libm.magnitude.ulp, "\(x): \(ours) vs \(libm)")
    }

    @Test("eˣ − 1 within 8 units in the last place of expm1", arguments: points.filter { $0 < 650 } + [-30, -5, 7, 100])
    func expMinusOne(x: Double) {
        let ours = RealtimeMath.expMinusOne(x), libm = expm1(x)
        #expect(abs(ours - libm) <= 8 * libm.magnitude.ulp, "\(x): \(ours) vs \(libm)")
    }
}
