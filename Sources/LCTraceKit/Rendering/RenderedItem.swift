/// One item rendered ahead of time but for its session number, which is known only when it is replayed: `prefix`,
/// then `text[before]`, then the number, then `text[after]`. An event or transition line has its fixed beginning as
/// the prefix and nothing before the number; a session rendered whole has its provisional number cut out of it,
/// wherever the format writes it.
public struct RenderedItem: Sendable {
    let prefix: StaticString
    /// Appended to by the thread that rendered the item, and only read once that thread has handed its results on.
    /// Not retained: whoever renders an item owns its text and keeps it until the item is written (a recording
    /// until it is replayed, a reporter for the call). Retained, its reference count was touched for every
    /// item by the worker that made it and again by the thread that replayed it.
    unowned(unsafe) let text: ByteBuffer
    let before: Range<Int>
    let after: Range<Int>

    /// `prefix`, the number, then `text[tail]`.
    init(prefix: StaticString, text: ByteBuffer, tail: Range<Int>) {
        self.prefix = prefix
        self.text = text
        self.before = tail.lowerBound..<tail.lowerBound
        self.after = tail
    }

    /// An item rendered whole from `start` to the end of `text` with a provisional number, which is the digits that
    /// follow the first `marker` in it.
    init(numbered text: ByteBuffer, from start: Int, after marker: StaticString) {
        let bytes = text.bytes
        let markerBytes = UnsafeRawBufferPointer(start: marker.utf8Start, count: marker.utf8CodeUnitCount)
        var slot = start
        while slot + markerBytes.count <= bytes.count,
              !RawBytes.equal(bytes.baseAddress! + slot, marker.utf8Start, count: markerBytes.count) {
            slot += 1
        }
        precondition(slot + markerBytes.count <= bytes.count, "a rendered session holds its number after its marker")
        slot += markerBytes.count
        var end = slot
        while end < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[end]) { end += 1 }
        self.prefix = ""
        self.text = text
        self.before = start..<slot
        self.after = end..<bytes.count
    }

    /// Writes the item with its number, in one write.
    func write(number: Int, to output: Output) {
        let bytes = text.bytes
        let before = UnsafeRawBufferPointer(rebasing: bytes[self.before])
        let after = UnsafeRawBufferPointer(rebasing: bytes[self.after])
        let prefix = self.prefix
        output.write(atMost: prefix.utf8CodeUnitCount + before.count + JSONWriter.integerRoom + after.count) { room in
            // Offsets within the room reserved, added without overflow checks.
            RawBytes.copy(prefix.utf8CodeUnitCount, from: prefix.utf8Start, to: room)
            var at = prefix.utf8CodeUnitCount
            if let source = before.baseAddress { RawBytes.copy(before.count, from: source, to: room + at) }
            at &+= before.count
            at &+= JSONWriter.writeInteger(Int64(number), at: room + at)
            if let source = after.baseAddress { RawBytes.copy(after.count, from: source, to: room + at) }
            return at &+ after.count
        }
    }
}

/// An event or transition (a live item) rendered ahead of time on a parallel run's worker, with the number of its
/// session among the sessions that worker's recording holds: the replay adds the number of sessions before them.
public struct RenderedLiveItem: Sendable {
    let item: RenderedItem
    let session: Int
}

/// How a reporter renders a closed session ahead of time on another thread (a parallel run's worker): all of it,
/// with the number the worker gave it, which is cut out (the digits after the first `numberMarker`) and written
/// again when the session is replayed and its number in the run is known. The reporter renders its sessions with the
/// same function when it renders them itself, so the two are the same text.
public struct SessionFormatter: Sendable {
    /// What the session's number follows, the first time it occurs in the rendered text.
    let numberMarker: StaticString
    let render: @Sendable (SessionReport, ByteBuffer) -> Void

    init(numberAfter marker: StaticString, render: @escaping @Sendable (SessionReport, ByteBuffer) -> Void) {
        numberMarker = marker
        self.render = render
    }

    /// Appends the session to `text`, its number cut out.
    func callAsFunction(_ session: SessionReport, into text: ByteBuffer) -> RenderedItem {
        let start = text.count
        render(session, text)
        return RenderedItem(numbered: text, from: start, after: numberMarker)
    }
}
