import Histogram

/// Durations put aside on a worker's thread for the replaying analyzer, grouped by name: replaying them costs one
/// lookup per name, not one per duration.
struct DurationSamples {
    private(set) var loadToAppear: [String: [UInt64]] = [:]
    private(set) var transitions: [String: [UInt64]] = [:]

    mutating func record(_ ms: Double, of kind: DurationKind, name: String) {
        switch kind {
        case .loadToFirstAppear: loadToAppear[name, default: []].append(DurationAggregator.micros(ms))
        case .transition: transitions[name, default: []].append(DurationAggregator.micros(ms))
        }
    }
}

/// Percentiles of durations per name (controller class, transition kind) over the whole run, in bounded memory.
///
/// A name's first `exactSamples` durations are kept as they are, and its percentiles are exact; past them they go
/// into a histogram with two significant digits (13 KB, percentiles within 1 %). At most `maxNames` names get a row
/// of their own; durations of any further name are counted in one row, `otherName`. The maximum is always exact.
struct DurationAggregator {
    /// Durations kept exactly per name before its histogram is made.
    static let exactSamples = 256
    /// Names with a row of their own; a log with more controller classes puts the rest together.
    static let maxNames = 1000
    static let otherName = "(other classes)"  // only classes overflow: transition kinds are few
    /// One hour: in a histogram, longer durations count as one hour (the maximum stays exact).
    static let ceilingMicros: UInt64 = 3_600_000_000

    private struct Series {
        private var samples: [UInt64] = []
        private var histogram: Histogram<UInt32>?
        private(set) var count = 0
        private(set) var maxMicros: UInt64 = 0
        /// Durations over the ceiling that the histogram counts as the ceiling.
        private(set) var overCeiling = 0

        /// Whether `histogram` is made: asked of a flag, since asking the optional copies the histogram.
        private var hasHistogram = false

        mutating func record(_ micros: UInt64) {
            count += 1
            maxMicros = max(maxMicros, micros)
            if !hasHistogram {
                if samples.count < DurationAggregator.exactSamples { samples.append(micros); return }
                var made = Histogram<UInt32>(highestTrackableValue: DurationAggregator.ceilingMicros, numberOfSignificantValueDigits: .two)
                for sample in samples { Series.add(sample, to: &made, over: &overCeiling) }
                samples = []
                histogram = made
                hasHistogram = true
            }
            Series.add(micros, to: &histogram!, over: &overCeiling)
        }

        mutating func record(contentsOf samples: [UInt64]) {
            for micros in samples { record(micros) }
        }

        private static func add(_ micros: UInt64, to histogram: inout Histogram<UInt32>, over: inout Int) {
            if micros > DurationAggregator.ceilingMicros { over += 1 }
            histogram.record(min(micros, DurationAggregator.ceilingMicros))
        }

        /// The duration at `percentile` (nearest rank), never above the maximum.
        func value(atPercentile percentile: Double) -> UInt64 {
            if let histogram { return min(histogram.valueAtPercentile(percentile), maxMicros) }
            guard !samples.isEmpty else { return 0 }
            let sorted = samples.sorted()
            let rank = max(1, Int((percentile / 100 * Double(sorted.count)).rounded(.up)))
            return sorted[min(rank, sorted.count) - 1]
        }
    }

    private var series: [String: Series] = [:]

    /// A duration in whole microseconds (never negative).
    static func micros(_ ms: Double) -> UInt64 {
        guard ms > 0 else { return 0 }
        return ms * 1000 < Double(UInt64.max / 2) ? UInt64((ms * 1000).rounded()) : UInt64.max / 2
    }

    mutating func record(_ ms: Double, for name: String) {
        record(DurationAggregator.micros(ms), for: name)
    }

    /// One lookup when the name has its row already (the common case: a run has few names and many durations).
    private mutating func record(_ micros: UInt64, for name: String) {
        if let row = series.index(forKey: name) {
            series.values[row].record(micros)
        } else {
            series[key(for: name), default: Series()].record(micros)
        }
    }

    /// Samples put aside elsewhere, in microseconds by name: one lookup per name.
    mutating func record(_ samples: [String: [UInt64]]) {
        for (name, micros) in samples {
            series[key(for: name), default: Series()].record(contentsOf: micros)
        }
    }

    /// The row a name's durations go to: its own, or `otherName` once `maxNames` rows are taken.
    private func key(for name: String) -> String {
        series[name] != nil || series.count < DurationAggregator.maxNames ? name : DurationAggregator.otherName
    }

    func stats() -> [DurationStats] {
        series.keys.sorted { ($0 == DurationAggregator.otherName ? 1 : 0, $0) < ($1 == DurationAggregator.otherName ? 1 : 0, $1) }.map { name in
            let entry = series[name]!
            func ms(_ micros: UInt64) -> Double { (Double(micros) / 100).rounded() / 10 }
            return DurationStats(name: name, count: entry.count, p50Ms: ms(entry.value(atPercentile: 50)),
                                 p90Ms: ms(entry.value(atPercentile: 90)), maxMs: ms(entry.maxMicros),
                                 overAnHour: entry.overCeiling)
        }
    }
}
