/// Arithmetic the follower needs, in plain Swift: the C library's `sqrt` lies
/// outside the module, where the real-time check cannot prove it free of locks
/// and allocation (docs/DESIGN.md §2.2), as `RealtimeMath` says of `log1p`.
enum ClockMath {
    /// √x for x ≥ 0 (0 for anything else): Newton's iteration from a power of two
    /// within a factor 2 of the root; six steps reach full precision.
    @inline(__always) static func squareRoot(_ x: Double) -> Double {
        guard x > 0, x.isFinite else { return x.isFinite ? 0 : x }
        var root = Double(sign: .plus, exponent: x.exponent / 2, significand: 1)
        for _ in 0..<6 { root = 0.5 * (root + x / root) }
        return root
    }

    /// The greatest common divisor of two non-negative integers (Euclid).
    @inline(__always) static func gcd(_ a: Int64, _ b: Int64) -> Int64 {
        var a = a, b = b
        while b != 0 { (a, b) = (b, a % b) }
        return a
    }
}
