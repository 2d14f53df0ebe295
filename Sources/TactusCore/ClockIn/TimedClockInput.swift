/// One decoded byte's result at its time: what the JACK meter's cycle hands the
/// printing thread through an `SPSCRing` (a plain value: the ring copies it).
public struct TimedClockInput: Sendable, BitwiseCopyable, Equatable {
    public let output: ClockInputDecoder.Output
    public let time: Int64

    #if REALTIME_CHECKS
    @_noLocks @_noAllocation
    #endif
    public init(_ output: ClockInputDecoder.Output, at time: Int64) {
        self.output = output
        self.time = time
    }
}
