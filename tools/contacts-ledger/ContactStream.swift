import ContactsInterchange
import ContactsLedger
import ContactsModel
import Foundation

/// Writes many contacts as one JSON array or one vCard file while they are read from the store,
/// a batch at a time, never holding them all or all their text: a large address book is a
/// hundred megabytes of JSON.
struct ContactStream {
    /// The form of the output.
    enum Format: Sendable {
        case json
        case vCard(VCardVersion)
    }

    private var bytes: [UInt8] = []
    private let format: Format
    private var text: ParallelText<Contact, Never>
    /// Where the first contact's text starts in `bytes` until it is written: every contact's JSON
    /// text starts with a comma, so that one that cannot be read leaves none out of place, and
    /// the first comma is taken out here.
    private var firstContactOffset: Int?
    private let flush: ([UInt8]) throws -> Void

    /// How many bytes are gathered before they go to `flush`: less than a batch of contacts
    /// holds, so that each batch's text is written as it comes (``ParallelText`` then hands it
    /// over without a copy).
    private static let flushSize = 1 << 16

    /// Thrown when the output cannot be written (the reader, `head` or a pager, is gone), so
    /// that reading stops; the command then ends quietly.
    struct Closed: Error {}

    /// A stream that hands its bytes to `flush` in order; a `flush` that throws closes it.
    init(_ format: Format, flush: @escaping ([UInt8]) throws -> Void) {
        self.flush = flush
        self.format = format
        bytes.reserveCapacity(Self.flushSize * 2)
        text = Self.text(format, weight: { _ in 1 }) { contact, body in body(contact) }
        if case .json = format {
            bytes.append(UInt8(ascii: "["))
            firstContactOffset = bytes.count
        }
    }

    /// Formats the contacts that `contacts` gives for each item, in the stream's format; an item
    /// weighs as many contacts as it holds (``ParallelText``).
    private static func text<Item>(
        _ format: Format, weight: @escaping (Item) -> Int,
        _ contacts: @escaping @Sendable (Item, (Contact) -> Void) -> Void
    ) -> ParallelText<Item, Never> {
        switch format {
        case .json:
            ParallelText(weight: weight) { item, _, output in
                contacts(item) { contact in
                    output.append(UInt8(ascii: ","))
                    ContactJSON.write(contact, to: &output)
                }
            }
        case .vCard(let version):
            ParallelText(weight: weight) { item, _, output in
                contacts(item) { VCardWriter.append($0, version: version, to: &output) }
            }
        }
    }

    /// How many contacts of a selection are decoded in one run: enough that each is asked of the
    /// processor's memory a few contacts ahead (``ContactSelection/forEachContact(in:_:)``).
    private static let runLength = 64

    /// A stream to standard output.
    static func standardOutput(_ format: Format) -> ContactStream {
        widenPipe(STDOUT_FILENO)
        return ContactStream(format) { try StreamOutput.writeAll($0, to: STDOUT_FILENO) }
    }

    /// Asks for a pipe of 1 MiB when `descriptor` is a pipe: at the default 64 KiB, a long
    /// listing fills the pipe at every write, and the writer and its reader wake each other for
    /// each one, on processors the formatting needs. Only a hint: anything but a pipe, or a pipe
    /// the system will not widen, is left as it is.
    private static func widenPipe(_ descriptor: Int32) {
        #if os(Linux)
            // F_SETPIPE_SZ, which the C library declares only for GNU sources.
            let setPipeSize: Int32 = 1031
            _ = fcntl(descriptor, setPipeSize, Int32(1 << 20))
        #endif
    }

    /// Writes one contact.
    mutating func write(_ contact: Contact) throws {
        text.add(contact, to: &bytes)
        try written()
    }

    /// Writes every contact of a selection, decoding and formatting runs of them on every processor.
    mutating func write(_ selection: ContactSelection) throws {
        text.drain(to: &bytes)
        var runs = Self.text(format, weight: \.count) { selection.forEachContact(in: $0, $1) }
        for start in stride(from: 0, to: selection.count, by: Self.runLength) {
            runs.add(start..<min(start + Self.runLength, selection.count), to: &bytes)
            try written()
        }
        runs.drain(to: &bytes)
        try written()
    }

    /// Takes out the first contact's comma once it is there, and hands a full buffer on.
    private mutating func written() throws {
        if let offset = firstContactOffset, bytes.count > offset {
            if bytes[offset] == UInt8(ascii: ",") { bytes.remove(at: offset) }
            firstContactOffset = nil
        }
        if bytes.count >= Self.flushSize { try flushBytes() }
    }

    /// Writes the end of the output and what is left of it.
    mutating func finish() throws {
        text.drain(to: &bytes)
        try written()
        if case .json = format { bytes += "]\n".utf8 }
        try flushBytes()
    }

    private mutating func flushBytes() throws {
        do { try flush(bytes) } catch { throw Closed() }
        bytes.removeAll(keepingCapacity: true)
    }

    /// Runs `body`, which writes contacts to the stream, then ends the stream. A reader that went
    /// away ends the writing quietly; any other error is thrown.
    mutating func writing(_ body: (inout ContactStream) throws -> Void) throws {
        do {
            try body(&self)
            try finish()
        } catch is Closed {
            return
        }
    }
}

extension ContactStore {
    /// Writes every contact a request selects to a stream and ends it.
    func write(_ request: ContactFetchRequest, to stream: inout ContactStream) throws {
        let selection = try self.selection(for: request)
        try stream.writing { try $0.write(selection) }
    }
}
