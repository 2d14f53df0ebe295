/// What the process cycle saw JACK transport do that the engine takes in the
/// same cycle, in `join` and `master` (docs/DESIGN.md §13.3), with the
/// transport's frame: it started rolling (`Engine.transportStarted`, before
/// the render), or it was located while rolling and is held at its new frame
/// for this cycle (`Engine.transportLocated`, at the render's end, where the
/// next cycle starts from that frame). The control thread no longer carries
/// these to the engine: its commands arrive a cycle or two later, after the
/// timebase callback has published the BBT of those cycles.
enum TransportTake: BitwiseCopyable {
    case started(frame: UInt32)
    case located(frame: UInt32)
}
