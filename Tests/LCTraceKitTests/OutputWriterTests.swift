import Dispatch
import Foundation
import Testing
@testable import LCTraceKit

/// An output to a descriptor that writes its full buffers on a thread of its own (`BackgroundWriter`, as a run over
/// files does): the bytes must arrive whole and in order, `flush()` must return only once they have, and a failed
/// write must be reported.
@Suite struct OutputWriterTests {
    /// Reads `readEnd` on a thread of its own until its writer closes (a pipe holds only 64 KiB), at most `chunkBytes`
    /// at a time with a `pause` after each read: what was read so far, and a wait for all of it.
    private static func drain(_ readEnd: Int32, chunkBytes: Int = 1 << 16,
                              pause: Double = 0) -> (soFar: Lock<[UInt8]>, all: () -> [UInt8]) {
        let received = Lock<[UInt8]>([])
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            var chunk = [UInt8](repeating: 0, count: chunkBytes)
            while true {
                let count = chunk.withUnsafeMutableBytes { read(readEnd, $0.baseAddress, $0.count) }
                if count <= 0 { break }
                received.withLock { $0 += chunk[..<count] }
                if pause > 0 { Thread.sleep(forTimeInterval: pause) }
            }
            done.signal()
        }
        return (received, { done.wait(); return received.withLock { $0 } })
    }

    /// An output to `fd` that writes in the background.
    private static func backgroundOutput(_ fd: Int32) -> Output {
        let output = Output(fileDescriptor: fd)
        output.writesInBackground = true
        #expect(output.writesInBackground)
        return output
    }

    /// A pipe, holding at most 64 KiB where the system lets that be said (Linux's default is sixteen pages, a MiB
    /// with 64 KiB pages).
    private static func pipeEnds() -> (read: Int32, write: Int32) {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        #if os(Linux)
        let setPipeSize: Int32 = 1031  // F_SETPIPE_SZ, <linux/fcntl.h>
        #expect(fcntl(ends[1], setPipeSize, Int32(64 << 10)) >= 0)
        #endif
        return (ends[0], ends[1])
    }

    /// Pieces of every size through several megabytes, with a flush in the middle: the reader gets them all, in the
    /// order written, and what a flush wrote is there before it returns.
    @Test func bytesArriveWholeAndInOrder() throws {
        let (readEnd, writeEnd) = Self.pipeEnds()
        let received = Self.drain(readEnd).all
        var expected: [UInt8] = []
        do {
            let output = Self.backgroundOutput(writeEnd)
            var generator = SystemRandomNumberGenerator()
            var written = 0
            var flushed = false
            while written < 6 << 20 {
                let size = [1, 7, 100, 4096, 70_000, 300_000].randomElement(using: &generator)!
                let piece = (0..<size).map { UInt8(truncatingIfNeeded: written + $0) }
                output.write(bytes: piece)
                expected += piece
                written += size
                if !flushed, written > 3 << 20 {
                    output.flush()
                    flushed = true
                }
            }
            output.flush()
            #expect(output.failure == nil)
        }
        close(writeEnd)
        let bytes = received()
        close(readEnd)
        #expect(bytes.count == expected.count)
        // Compared here rather than by the expectation, which would look for the least edit between megabytes.
        let firstDifference = zip(bytes, expected).enumerated().first { $0.element.0 != $0.element.1 }?.offset
        #expect(firstDifference == nil)
    }

    /// `flush()` returns once every byte written before it reached the descriptor, not when it was handed on: with a
    /// reader slower than the writer, all but what the pipe itself holds has been read by then.
    @Test func flushWaitsForTheWrites() throws {
        let (readEnd, writeEnd) = Self.pipeEnds()
        let received = Self.drain(readEnd, chunkBytes: 16 << 10, pause: 0.002)
        let output = Self.backgroundOutput(writeEnd)
        let line = Array("2016-03-17 16:02:37.277 LifeCycle[2148:117099] ViewController >>>> viewDidLoad\n".utf8)
        var total = 0
        for round in 1...2 {
            // More than the megabyte an output hands on at a time, so that the writer's queue holds some of it.
            for _ in 0..<40_000 { output.write(bytes: line) }
            total += 40_000 * line.count
            output.flush()
            // A pipe holds at most 64 KiB on Linux and macOS; the writer's queue alone would hold more.
            let read = received.soFar.withLock { $0.count }
            #expect(read >= total - (128 << 10), "round \(round): \(read) of \(total) bytes read")
        }
        close(writeEnd)
        let all = received.all()
        close(readEnd)
        #expect(all.count == total)
    }

    /// Two buffers trade their bytes and room, and a buffer traded with itself keeps its own.
    @Test func buffersTradeContents() {
        let full = ByteBuffer(capacity: 16)
        full.append("a report's first megabyte" as String)
        let empty = ByteBuffer(capacity: 4096)
        empty.exchangeContents(with: full)
        #expect(String(decoding: empty.bytes, as: UTF8.self) == "a report's first megabyte")
        #expect(full.isEmpty && full.capacity == 4096)
        full.append(UInt8(ascii: "x"))
        #expect(String(decoding: empty.bytes, as: UTF8.self) == "a report's first megabyte")
        empty.exchangeContents(with: empty)
        #expect(empty.count == 25)
    }

    /// Background writing is asked for, and never used for a terminal or memory.
    @Test func backgroundWritingIsAskedFor() throws {
        let (readEnd, writeEnd) = Self.pipeEnds()
        defer { close(readEnd); close(writeEnd) }
        #expect(!Output(fileDescriptor: writeEnd).writesInBackground)
        let memory = Output()
        memory.writesInBackground = true
        #expect(!memory.writesInBackground)
    }

    /// A descriptor that takes no writes: the failure is reported once the output is flushed, and nothing more is
    /// written (nor does the output wait) after it.
    @Test func aFailedWriteIsReported() throws {
        let fd = open("/dev/null", O_RDONLY)
        #expect(fd >= 0)
        defer { close(fd) }
        let output = Self.backgroundOutput(fd)
        let piece = [UInt8](repeating: 0x61, count: 50_000)
        for _ in 0..<100 { output.write(bytes: piece) }
        output.flush()
        let failure = try #require(output.failure)
        #expect(failure.hasPrefix("cannot write to the output: "))
        for _ in 0..<100 { output.write(bytes: piece) }
        output.flush()
        #expect(output.failure == failure)
    }
}
