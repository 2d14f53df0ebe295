/// ln(1 + x) and eˣ − 1 in plain Swift arithmetic, for the tempo map's ramps
/// (`RampMapping`) on the render thread: the C library's `log1p` and `expm1`
/// are outside the module, so the real-time checker cannot prove them free of
/// locks and allocation (docs/DESIGN.md §2.2). Both are accurate to a few units
/// in the last place, which is 10⁻⁷ of a frame for an hour-long ramp.
enum RealtimeMath {
    static let ln2 = 0.693_147_180_559_945_309_417_232_121_458

    /// ln(1 + x) for x > −1. Near 0 it never forms 1 + x (which would lose x's
    /// low bits): ln(1 + x) = 2 atanh(x / (2 + x)).
    static func logOnePlus(_ x: Double) -> Double {
        if x > -0.29 && x < 0.41 { return 2 * atanhSeries(x / (2 + x)) }
        // 1 + x = m × 2^e with m in [√½, √2): ln = e ln 2 + 2 atanh((m − 1) / (m + 1)).
        let y = 1 + x
        var e = Int(y.exponent)
        var m = y.significand   // in [1, 2)
        if m > 1.414_213_562_373_095 {
            m /= 2
            e += 1
        }
        return Double(e) * ln2 + 2 * atanhSeries((m - 1) / (m + 1))
    }

    /// z + z³/3 + z⁵/5 + … for |z| ≤ 0.18: 16 terms reach 10⁻²⁵.
    @inline(__always) static func atanhSeries(_ z: Double) -> Double {
        let z2 = z * z
        var term = z
        var sum = z
        var k = 3.0
        while k < 34 {
            term *= z2
            sum += term / k
            k += 2
        }
        return sum
    }

    /// eˣ − 1; near 0 without forming eˣ (which would lose the small result's bits).
    static func expMinusOne(_ x: Double) -> Double {
        if x > -0.35 && x < 0.35 { return taylorMinusOne(x) }
        guard x < 700 else { return .infinity }
        guard x > -700 else { return -1 }
        // eˣ = 2ⁿ × eʳ with |r| ≤ ln2 / 2.
        let n = floorToInt64(x / ln2 + 0.5)
        let r = x - Double(n) * ln2
        var scale = 1.0
        var i: Int64 = 0
        if n >= 0 { while i < n { scale *= 2; i += 1 } } else { while i > n { scale /= 2; i -= 1 } }
        return (taylorMinusOne(r) + 1) * scale - 1
    }

    /// x + x²/2! + … for |x| ≤ 0.35: 18 terms reach 10⁻²⁰.
    @inline(__always) static func taylorMinusOne(_ x: Double) -> Double {
        var term = x
        var sum = x
        var k = 2.0
        while k < 20 {
            term *= x / k
            sum += term
            k += 1
        }
        return sum
    }
}
