import Histogram

/// The row of each name, in the order the names came: found by a hash of the name's bytes (`ByteHash`) in a small
/// open table, then one comparison of the name. A duration is recorded for every transition and every controller's
/// first appearance, and the dictionary's hashing of the name (about 400 instructions) was most of what a record cost.
/// A name that is not ASCII is hashed as Swift hashes it: two spellings of one text (a letter with its accent in one
/// character or two) are one name, as they are to `==` and were to the dictionary.
struct NameRows {
    private(set) var names: [String] = []
    /// The row of the name in each slot, -1 in an empty one; at most half the slots are taken.
    private var slots = [Int32](repeating: -1, count: 16)

    var count: Int { names.count }

    /// The row of `name`, or nil when it has none.
    func row(of name: String) -> Int? {
        let mask = slots.count - 1
        var slot = Int(NameRows.hash(name)) & mask
        while true {
            let row = Int(slots[slot])
            if row < 0 { return nil }
            if names[row] == name { return row }
            slot = (slot + 1) & mask
        }
    }

    /// Gives `name` (which has none) the next row.
    mutating func add(_ name: String) -> Int {
        let row = names.count
        names.append(name)
        if 2 * names.count > slots.count {
            slots = [Int32](repeating: -1, count: 2 * slots.count)
            for (kept, keptName) in names.enumerated() { place(keptName, row: kept) }
        } else {
            place(name, row: row)
        }
        return row
    }

    private mutating func place(_ name: String, row: Int) {
        let mask = slots.count - 1
        var slot = Int(NameRows.hash(name)) & mask
        while slots[slot] >= 0 { slot = (slot + 1) & mask }
        slots[slot] = Int32(row)
    }

    private static func hash(_ name: String) -> UInt32 {
        let ascii = name.utf8.withContiguousStorageIfAvailable { bytes -> UInt32? in
            var high: UInt8 = 0
            for byte in bytes { high |= byte }
            return high < 0x80 ? ByteHash.of(UnsafeRawBufferPointer(bytes)) : nil
        }
        return (ascii ?? nil) ?? UInt32(truncatingIfNeeded: name.hashValue)
    }
}

/// Durations put aside on a worker's thread for the replaying analyzer, grouped by name: replaying them costs one
/// lookup per name, not one per duration.
struct DurationSamples {
    struct Group {
        var names = NameRows()
        var micros: [[UInt64]] = []

        mutating func append(_ value: UInt64, for name: String) {
            if let row = names.row(of: name) {
                micros[row].append(value)
            } else {
                _ = names.add(name)
                micros.append([value])
            }
        }
    }

    private(set) var loadToAppear = Group()
    private(set) var transitions = Group()

    mutating func record(_ ms: Double, of kind: DurationKind, name: String) {
        switch kind {
        case .loadToFirstAppear: loadToAppear.append(DurationAggregator.micros(ms), for: name)
        case .transition: transitions.append(DurationAggregator.micros(ms), for: name)
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

    /// One series per row of `rows`.
    private var series: [Series] = []
    private var rows = NameRows()

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
        series[row(for: name)].record(micros)
    }

    /// Samples put aside elsewhere, in microseconds by name: one lookup per name.
    mutating func record(_ samples: DurationSamples.Group) {
        for (row, name) in samples.names.names.enumerated() {
            series[self.row(for: name)].record(contentsOf: samples.micros[row])
        }
    }

    /// The row a name's durations go to: its own, or `otherName`'s once `maxNames` rows are taken.
    private mutating func row(for name: String) -> Int {
        if let row = rows.row(of: name) { return row }
        if rows.count >= DurationAggregator.maxNames, let other = rows.row(of: DurationAggregator.otherName) { return other }
        let row = rows.add(rows.count < DurationAggregator.maxNames ? name : DurationAggregator.otherName)
        series.append(Series())
        return row
    }

    func stats() -> [DurationStats] {
        let order = rows.names.indices.sorted { first, second in
            let (a, b) = (rows.names[first], rows.names[second])
            return (a == DurationAggregator.otherName ? 1 : 0, a) < (b == DurationAggregator.otherName ? 1 : 0, b)
        }
        return order.map { row in
            let name = rows.names[row]
            let entry = series[row]
            func ms(_ micros: UInt64) -> Double { (Double(micros) / 100).rounded() / 10 }
            return DurationStats(name: name, count: entry.count, p50Ms: ms(entry.value(atPercentile: 50)),
                                 p90Ms: ms(entry.value(atPercentile: 90)), maxMs: ms(entry.maxMicros),
                                 overAnHour: entry.overCeiling)
        }
    }
}
