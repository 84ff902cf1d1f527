/// A session's time. Added to every time read is the sum of the steps back the clock took (two logs pasted out of
/// order, a time of day past midnight): a session's time never goes back, so durations across a step back count as
/// zero.
struct SessionClock {
    private(set) var startMicros: Int64?
    private(set) var startTime: TimeText?
    private(set) var lastMicros: Int64?
    /// The last timed event's time as logged (empty before one).
    private(set) var endTime = TimeText()
    private var shift: Int64 = 0
    /// How often the logged time went back, and the line where it first did.
    private(set) var stepsBack = 0
    private(set) var firstStepBack: Int?
    /// The latest step back: how far, in microseconds, and the time logged before it.
    private(set) var lastStep: (micros: Int64, from: TimeText) = (0, TimeText())

    /// The session's time of an event logged at `micros` (nil for none) on `line`, written as `time`.
    @inline(__always)
    mutating func time(of micros: Int64?, written time: borrowing TimeText, line: Int) -> Int64? {
        guard let micros else { return nil }
        var shifted = micros &+ shift
        if let lastMicros, shifted < lastMicros {
            lastStep = (lastMicros - shifted, endTime)
            shift &+= lastMicros - shifted
            stepsBack += 1
            if firstStepBack == nil { firstStepBack = line }
            shifted = lastMicros
        }
        if startMicros == nil { startMicros = shifted; startTime = time.nonEmpty }
        lastMicros = shifted
        endTime = copy time
        return shifted
    }
}
