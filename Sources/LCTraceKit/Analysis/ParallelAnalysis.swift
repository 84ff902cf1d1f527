import Dispatch

/// `--jobs N`: inputs analysed on up to N threads, each by its own `Analyzer` into a recording; the recordings are
/// replayed into the run's sink in input order with sessions renumbered, so the output is byte-identical to
/// analysing the inputs one after another. At most N inputs are in flight or waiting to be replayed.
extension Analyzer {
    /// Throws `InputFailure` for the first input (in order) that cannot be read, after everything before it.
    public func analyze(_ sources: [InputSource], jobs: Int) throws(InputFailure) {
        guard jobs > 1, sources.count > 1 else {
            for source in sources {
                do { try analyze(source) } catch { throw InputFailure(input: source.name, error: error) }
            }
            return
        }
        let results = RecordingSlots(count: sources.count)
        let window = DispatchSemaphore(value: jobs)
        let options = self.options
        let wantsLiveItems = self.wantsLiveItems
        DispatchQueue.global().async {
            for (index, source) in sources.enumerated() {
                window.wait()
                DispatchQueue.global().async {
                    let recording = Recording(wantsLiveItems: wantsLiveItems)
                    do {
                        // The options were validated when this analyzer was made, so they compile again.
                        let worker = try Analyzer(options: options, sink: recording)
                        try worker.analyze(source)
                        recording.durations = worker.durations
                    } catch {
                        recording.error = InputFailure(input: source.name, error: error)
                    }
                    results.store(recording, at: index)
                }
            }
        }
        for index in sources.indices {
            let recording = results.take(at: index)
            window.signal()
            replay(recording)
            if let failure = recording.error { throw failure }
        }
    }
}

/// An input that could not be read (or a forced pattern that stopped compiling), named.
public struct InputFailure: Error, CustomStringConvertible {
    public var input: String
    public var error: any Error
    public var description: String { "\(input): \(error)" }
}

/// Everything a worker's analysis reported, in order.
final class Recording: ReportSink, @unchecked Sendable {
    enum Item {
        case begin(String)
        case finding(Finding)
        case event(EventRecord, subject: String, session: Int, input: String)
        case transition(TransitionReport, session: Int, input: String)
        case session(SessionReport)
        case end(InputSummary)
    }

    let wantsLiveItems: Bool
    var items: [Item] = []
    var durations: (loadToAppear: DurationAggregator, transitions: DurationAggregator)?
    var error: InputFailure?

    init(wantsLiveItems: Bool) { self.wantsLiveItems = wantsLiveItems }

    func beginInput(_ name: String) { items.append(.begin(name)) }
    func finding(_ finding: Finding) { items.append(.finding(finding)) }
    func event(_ event: EventRecord, subject: String, session: Int, input: String) {
        items.append(.event(event, subject: subject, session: session, input: input))
    }
    func transition(_ transition: TransitionReport, session: Int, input: String) {
        items.append(.transition(transition, session: session, input: input))
    }
    func sessionClosed(_ session: SessionReport) { items.append(.session(session)) }
    func endInput(_ summary: InputSummary) { items.append(.end(summary)) }
    func finish(_ summary: RunSummary) {}
}

/// One slot per input, filled by a worker and taken, in order, by the replaying thread.
private final class RecordingSlots: @unchecked Sendable {
    private var slots: [Recording?]
    private let ready: [DispatchSemaphore]

    init(count: Int) {
        slots = Array(repeating: nil, count: count)
        ready = (0..<count).map { _ in DispatchSemaphore(value: 0) }
    }

    func store(_ recording: Recording, at index: Int) {
        slots[index] = recording
        ready[index].signal()
    }

    func take(at index: Int) -> Recording {
        ready[index].wait()
        defer { slots[index] = nil }
        return slots[index]!
    }
}
