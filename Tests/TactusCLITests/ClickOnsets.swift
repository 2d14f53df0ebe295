/// Onsets of a rendered click track: a nonzero sample after at least 64 zero
/// samples (a click is 35 ms of a decaying cosine whose first sample is its
/// peak, then exact silence; klick's square wave starts on its first sample too).
func clickOnsets(_ samples: [Float]) -> [Int] {
    var result: [Int] = []
    var zeros = 64
    for (i, s) in samples.enumerated() {
        if s != 0 && zeros >= 64 { result.append(i) }
        zeros = s == 0 ? zeros + 1 : 0
    }
    return result
}
