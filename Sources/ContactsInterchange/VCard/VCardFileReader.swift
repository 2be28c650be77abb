import ContactsModel
import Foundation

/// Reads a whole vCard file: byte order marks, the split into cards, and each card.
struct VCardFileReader {
    let fallbackEncoding: VCardCharset.Encoding
    /// Whether properties no key maps are kept (``ContactKey/vCardExtensions``).
    var keepsOtherProperties = false

    /// One card, or a run of text outside any card, with its lines.
    private struct Segment {
        var firstLine: Int
        var lines: [VCardRawLine]
        var failure: (kind: VCardCardError.Kind, line: Int, message: String)?
    }

    /// Reads every card of the file; throws when the file is empty or holds no vCard at all
    /// (an image, an archive, text without a `BEGIN:VCARD`), naming what it holds.
    package func read(_ data: Data) throws(ContactStoreError) -> VCardImport {
        var (bytes, fileText) = Self.decodeFileEncoding(data)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            bytes.removeFirst(3)
        }
        if let problem = VCardFileKind.problem(ofFile: data, text: bytes) {
            throw ContactStoreError(.vCardMalformed, problem)
        }
        let lines = VCardLineReader(bytes).logicalLines()
        var result = VCardImport()
        for (index, segment) in Self.segments(lines).enumerated() {
            if let failure = segment.failure {
                result.rejected.append(
                    VCardCardError(cardIndex: index, line: failure.line, kind: failure.kind, message: failure.message))
                continue
            }
            var reader = VCardCardReader(
                cardIndex: index, beginLine: segment.firstLine, lines: segment.lines, fileText: fileText,
                fallbackEncoding: fallbackEncoding)
            reader.keepsOtherProperties = keepsOtherProperties
            let outcome = reader.read()
            result.warnings += reader.warnings
            switch outcome {
            case .success(let contact):
                result.contacts.append((index, contact))
                if let uid = reader.uid { result.uids[index] = uid }
            case .failure(let failure): result.rejected.append(failure)
            }
        }
        return result
    }

    /// The file's bytes as UTF-8 when it is UTF-16 (by its byte order mark, or by the zero
    /// bytes of ASCII text without one), and how undeclared text is encoded.
    static func decodeFileEncoding(_ data: Data) -> ([UInt8], VCardCardReader.FileText) {
        let bytes = [UInt8](data)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            return (bytes, .utf8)
        }
        var encoding: String.Encoding?
        if bytes.starts(with: [0xFF, 0xFE]) {
            encoding = .utf16LittleEndian
        } else if bytes.starts(with: [0xFE, 0xFF]) {
            encoding = .utf16BigEndian
        } else if bytes.count >= 4, bytes[0] != 0, bytes[1] == 0, bytes[2] != 0, bytes[3] == 0 {
            encoding = .utf16LittleEndian
        } else if bytes.count >= 4, bytes[0] == 0, bytes[1] != 0, bytes[2] == 0, bytes[3] != 0 {
            encoding = .utf16BigEndian
        }
        guard let encoding else {
            return (bytes, .guessed)
        }
        let hasMark = bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF])
        var units = hasMark ? Array(bytes.dropFirst(2)) : bytes
        if units.count % 2 == 1 {
            units.removeLast()
        }
        var scalars = String.UnicodeScalarView()
        var codeUnits: [UInt16] = []
        codeUnits.reserveCapacity(units.count / 2)
        var index = 0
        while index + 1 < units.count {
            let pair =
                encoding == .utf16LittleEndian
                ? UInt16(units[index]) | UInt16(units[index + 1]) << 8
                : UInt16(units[index]) << 8 | UInt16(units[index + 1])
            codeUnits.append(pair)
            index += 2
        }
        var decoder = UTF16()
        var iterator = codeUnits.makeIterator()
        decoding: while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar): scalars.append(scalar)
            case .emptyInput: break decoding
            case .error: scalars.append("\u{FFFD}")
            }
        }
        return (Array(String(scalars).utf8), .transcodedUTF16)
    }

    /// Splits the logical lines into cards and runs of stray text, in file order.
    private static func segments(_ lines: [VCardRawLine]) -> [Segment] {
        var splitter = SegmentSplitter()
        for line in lines {
            splitter.take(line)
        }
        return splitter.finish()
    }

    /// Splits lines into segments as they come.
    ///
    /// A `BEGIN:VCARD` inside a card ends that card as missing its `END:VCARD`, except right
    /// after an empty `AGENT:` property, where it starts a 2.1 agent card, which is skipped.
    private struct SegmentSplitter {
        /// The segments ended so far.
        private var segments: [Segment] = []
        /// The card begun and not yet ended.
        private var current: Segment?
        /// The lines outside any card since the last card ended.
        private var stray: Segment?
        /// How many agent cards the line is in (they nest).
        private var agentDepth = 0

        /// Adds the next line.
        mutating func take(_ line: VCardRawLine) {
            if agentDepth > 0 {
                if line.isBeginCard {
                    agentDepth += 1
                } else if line.isEndCard {
                    agentDepth -= 1
                }
                return
            }
            if line.isBeginCard {
                beginCard(line)
            } else if line.isEndCard {
                endCard(line)
            } else if current != nil {
                current?.lines.append(line)
            } else if stray != nil {
                stray?.lines.append(line)
            } else {
                stray = Segment(firstLine: line.lineNumber, lines: [line])
            }
        }

        /// Ends the file: a card still open is missing its `END:VCARD`. Returns every segment.
        mutating func finish() -> [Segment] {
            if var open = current {
                open.failure = (
                    .missingEnd, open.firstLine,
                    "BEGIN:VCARD at line \(open.firstLine) has no END:VCARD before the end of the file"
                )
                segments.append(open)
                current = nil
            }
            flushStray()
            return segments
        }

        /// A `BEGIN:VCARD`: starts a card, or an agent card inside the open one.
        private mutating func beginCard(_ line: VCardRawLine) {
            if var open = current {
                if let last = open.lines.last, last.header?.name == "AGENT",
                    VCardBytes.trimmed(last.valueBytes).isEmpty
                {
                    agentDepth = 1
                    return
                }
                open.failure = (
                    .missingEnd, open.firstLine,
                    "BEGIN:VCARD at line \(open.firstLine) has no END:VCARD before the next BEGIN:VCARD at line \(line.lineNumber)"
                )
                segments.append(open)
            }
            flushStray()
            current = Segment(firstLine: line.lineNumber, lines: [])
        }

        /// An `END:VCARD`: ends the open card, or, outside any card, fails with the stray lines
        /// before it.
        private mutating func endCard(_ line: VCardRawLine) {
            if let open = current {
                segments.append(open)
                current = nil
            } else if var pending = stray {
                pending.failure = (
                    .missingBegin, pending.firstLine,
                    "END:VCARD at line \(line.lineNumber) has no BEGIN:VCARD; lines \(pending.firstLine)–\(line.lineNumber) are outside any card"
                )
                segments.append(pending)
                stray = nil
            } else {
                segments.append(
                    Segment(
                        firstLine: line.lineNumber, lines: [],
                        failure: (
                            .missingBegin, line.lineNumber,
                            "END:VCARD at line \(line.lineNumber) has no BEGIN:VCARD"
                        )))
            }
        }

        /// Ends a run of stray lines, as a segment outside any card.
        private mutating func flushStray() {
            if var pending = stray {
                let last = pending.lines.last?.lineNumber ?? pending.firstLine
                pending.failure = (
                    .missingBegin, pending.firstLine,
                    "lines \(pending.firstLine)–\(last) stand outside any BEGIN:VCARD … END:VCARD"
                )
                segments.append(pending)
                stray = nil
            }
        }
    }
}
