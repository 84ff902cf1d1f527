extension Array {
    /// Removes the elements past the first `count`, keeping the list's memory, one at a time from the end. The
    /// analysis's short lists (a transition's steps and participants, the transitions closed by an event, the levels
    /// above a pop's cut) hold one to a few elements: removed this way they take about half the instructions of
    /// `removeAll(keepingCapacity:)` or `removeSubrange`, which go through the general replacement of a range. (A
    /// list whose memory is shared is copied by the first removal, as by either of those.)
    @inline(__always)
    mutating func truncate(to count: Int) {
        while self.count > count { removeLast() }
    }
}
