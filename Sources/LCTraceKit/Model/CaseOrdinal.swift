/// A field-less enum whose cases index flat tables, by their position in `allCases`. Swift stores a field-less enum of
/// two to 256 cases as its case index in one byte, so the position is that byte, read without a search or a switch.
/// Only such enums may conform: `unsafeBitCast` traps on a type of another size, but a one-byte enum with a payload
/// would read wrong positions. A test holds each conforming type to one byte and to the order of `allCases`.
protocol CaseOrdinal: CaseIterable {}

extension CaseOrdinal {
    /// The case's position in `allCases`.
    @inline(__always)
    var ordinal: Int { Int(unsafeBitCast(self, to: UInt8.self)) }
}
