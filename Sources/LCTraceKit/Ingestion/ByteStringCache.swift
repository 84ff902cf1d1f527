/// Values made once per distinct short byte string (class names, selectors) and found again by their bytes,
/// without allocating: the hot path sees the same few dozen names millions of times. Holds at most `limit`
/// entries, so hostile input cannot grow it; past that, values are made afresh each time. The table starts small
/// and doubles as entries come, at most half full: the few dozen names an app logs take a few KiB, not the
/// 128 KiB the table reaches at a limit of 4096.
///
/// Its table, key bytes and values are in memory of its own, reached through pointers: a lookup reads no array
/// (no bounds or uniqueness checks), and the properties it reads are only ever replaced whole, never changed across
/// a call, so they need no run-time exclusivity checks. Its owners hold it with `let`.
final class ByteStringCache<Value> {
    private struct Slot {
        var hash: UInt32 = 0
        var offset: Int32 = 0
        var length: Int32 = -1  // -1: empty
        var value: Int32 = 0
    }

    private var slots: UnsafeMutablePointer<Slot>
    /// The number of slots (a power of two), less one.
    private var mask: Int
    private var keyBytes: UnsafeMutablePointer<UInt8>
    private var keyCapacity: Int
    private var keyCount = 0
    private var values: UnsafeMutablePointer<Value>
    private var valueCapacity: Int
    /// The entries kept.
    private(set) var count = 0
    private let limit: Int
    /// Keys longer than this are not kept.
    private let maxKeyLength = 256

    init(limit: Int = 4096) {
        self.limit = limit
        let slotCount = ByteStringCache.initialSlots
        slots = .allocate(capacity: slotCount)
        slots.initialize(repeating: Slot(), count: slotCount)
        mask = slotCount - 1
        keyCapacity = 1024
        keyBytes = .allocate(capacity: keyCapacity)
        valueCapacity = slotCount / 2
        values = .allocate(capacity: valueCapacity)
    }

    deinit {
        slots.deallocate()
        keyBytes.deallocate()
        values.deinitialize(count: count)
        values.deallocate()
    }

    private static var initialSlots: Int { 64 }

    /// The value kept for `bytes`, or nil when none is (`store` keeps one). Found by hashing and comparing the
    /// bytes; a lookup and a store take no closure, so the caller's state is not captured (and retained) per lookup.
    @inline(__always)
    func value(for bytes: UnsafeRawBufferPointer) -> Value? {
        value(for: bytes, hash: ByteHash.of(bytes))
    }

    /// `value(for:)` with the bytes' `ByteHash` already worked out (to store them after a lookup that found nothing).
    @inline(__always)
    func value(for bytes: UnsafeRawBufferPointer, hash: UInt32) -> Value? {
        guard bytes.count <= maxKeyLength else { return nil }
        let (index, found) = slot(for: bytes, hash: hash)
        return found ? values[Int(slots[index].value)] : nil
    }

    /// Keeps `value` for `bytes` (not yet kept), while there is room; returns whether it did.
    @discardableResult
    func store(_ value: Value, for bytes: UnsafeRawBufferPointer) -> Bool {
        store(value, for: bytes, hash: ByteHash.of(bytes))
    }

    /// `store(_:for:)` with the bytes' `ByteHash` already worked out.
    @discardableResult
    func store(_ value: Value, for bytes: UnsafeRawBufferPointer, hash: UInt32) -> Bool {
        guard bytes.count <= maxKeyLength, count < limit else { return false }
        if (count + 1) * 2 > mask + 1 { grow() }
        let (index, found) = slot(for: bytes, hash: hash)
        guard !found else { return false }
        if keyCount + bytes.count > keyCapacity { keyBytes = ByteStringCache.enlarged(keyBytes, count: keyCount, to: &keyCapacity, atLeast: keyCount + bytes.count) }
        if count == valueCapacity { values = ByteStringCache.enlarged(values, count: count, to: &valueCapacity, atLeast: count + 1) }
        if let base = bytes.baseAddress { (keyBytes + keyCount).initialize(from: base.assumingMemoryBound(to: UInt8.self), count: bytes.count) }
        slots[index] = Slot(hash: hash, offset: Int32(keyCount), length: Int32(bytes.count), value: Int32(count))
        (values + count).initialize(to: value)
        keyCount += bytes.count
        count += 1
        return true
    }

    /// Twice the slots, each entry moved to its place in them.
    private func grow() {
        let old = slots
        let oldCount = mask + 1
        let slotCount = oldCount * 2
        let new = UnsafeMutablePointer<Slot>.allocate(capacity: slotCount)
        new.initialize(repeating: Slot(), count: slotCount)
        let newMask = slotCount - 1
        for slot in UnsafeBufferPointer(start: old, count: oldCount) where slot.length >= 0 {
            var index = Int(slot.hash) & newMask
            while new[index].length >= 0 { index = (index + 1) & newMask }
            new[index] = slot
        }
        old.deallocate()
        slots = new
        mask = newMask
    }

    /// `elements`' first `count` moved to new memory of at least twice `capacity` and `needed`, which `capacity` becomes.
    private static func enlarged<Element>(_ elements: UnsafeMutablePointer<Element>, count: Int, to capacity: inout Int,
                                          atLeast needed: Int) -> UnsafeMutablePointer<Element> {
        capacity = max(capacity * 2, needed)
        let moved = UnsafeMutablePointer<Element>.allocate(capacity: capacity)
        moved.moveInitialize(from: elements, count: count)
        elements.deallocate()
        return moved
    }

    /// The slot holding `bytes`, or the empty slot where they would go.
    @inline(__always)
    private func slot(for bytes: UnsafeRawBufferPointer, hash: UInt32) -> (index: Int, found: Bool) {
        let slots = self.slots, mask = self.mask
        var index = Int(hash) & mask
        while true {
            let slot = slots[index]
            if slot.length < 0 { return (index, false) }
            if slot.hash == hash, Int(slot.length) == bytes.count, matches(slot, bytes) { return (index, true) }
            index = (index &+ 1) & mask
        }
    }

    private func matches(_ slot: Slot, _ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let base = bytes.baseAddress, slot.length > 0 else { return true }
        return RawBytes.equal(keyBytes + Int(slot.offset), base, count: bytes.count)
    }
}

/// The hash `ByteStringCache` keys its entries by.
enum ByteHash {
    /// Sixteen bytes at a time (the last sixteen overlapping), each pair of words mixed by one full-width
    /// multiplication whose two halves are folded together; bytes outside `bytes` are never read. A message of 33 to
    /// 48 bytes takes three multiplications: about half the instructions of one multiplication and shift for each
    /// eight bytes. Every bit of every byte reaches the hash.
    @inline(__always)
    static func of(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
        let count = bytes.count
        var hash = UInt64(truncatingIfNeeded: count) &* 0x9E37_79B9_7F4A_7C15
        if count > 16 {
            var offset = 0
            // Offsets within the bytes, added without overflow checks (`LineOffsets`).
            while offset &+ 16 < count {
                hash = mix(word(bytes, at: offset) ^ 0xA076_1D64_78BD_642F, word(bytes, at: offset &+ 8) ^ hash)
                offset &+= 16
            }
            hash = mix(word(bytes, at: count &- 16) ^ 0xE703_7ED1_A0B4_28DB, word(bytes, at: count &- 8) ^ hash)
        } else if count >= 8 {
            hash = mix(word(bytes, at: 0) ^ 0xA076_1D64_78BD_642F, word(bytes, at: count &- 8) ^ hash)
        } else {
            var word: UInt64 = 0
            for byte in bytes { word = word << 8 | UInt64(byte) }
            hash = mix(word ^ 0xA076_1D64_78BD_642F, hash ^ 0xE703_7ED1_A0B4_28DB)
        }
        return UInt32(truncatingIfNeeded: hash)
    }

    @inline(__always)
    private static func word(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> UInt64 {
        bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
    }

    /// The two halves of the 128-bit product, folded: every bit of either word reaches the low half.
    @inline(__always)
    private static func mix(_ first: UInt64, _ second: UInt64) -> UInt64 {
        let (high, low) = first.multipliedFullWidth(by: second)
        return high ^ low
    }
}
