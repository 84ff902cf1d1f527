/// A field-less enum whose cases index flat tables, by their position in `allCases`. Swift stores a field-less enum of
/// two to 256 cases as its case index in one byte, so the position is that byte, read without a search or a switch;
/// `unsafeBitCast` traps if a conforming type is ever not one byte (an enum given a payload, or a single case). A test
/// checks each conforming type's positions against `allCases`.
protocol CaseOrdinal: CaseIterable {}

extension CaseOrdinal {
    /// The case's position in `allCases`.
    @inline(__always)
    var ordinal: Int { Int(unsafeBitCast(self, to: UInt8.self)) }
}
