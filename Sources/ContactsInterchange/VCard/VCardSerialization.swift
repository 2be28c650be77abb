import ContactsModel
import Foundation

/// Converts contacts to and from vCard data, like the framework's `CNContactVCardSerialization`.
///
/// Writing produces vCard 3.0 the way Apple's Contacts exports it (or vCard 4.0 on request);
/// reading accepts vCard 2.1, 3.0 and 4.0 as real exporters write them, with the leniency rules
/// listed in `Documentation/VCard.md`. Nothing here touches a store: parsed contacts are new
/// and are saved only by a save request that adds them.
public enum VCardSerialization: Sendable {
    /// The largest input ``read(_:strict:fallbackEncoding:)`` accepts, in bytes (64 MiB): far
    /// more than any address book export, and small enough to read in memory.
    public static let dataBytesMax = 64 * 1024 * 1024

    /// The keys the exporter reads: every key except the note and the two image keys derived
    /// from the image data.
    ///
    /// Fetch contacts with these keys before passing them to ``data(with:version:)``. The
    /// note is left out, as the framework leaves it out, because reading it needs the notes
    /// entitlement; a client that holds it adds ``ContactKey/note`` and the note is written.
    /// Unlike the framework's descriptor, this one includes ``ContactKey/imageData``, so
    /// photos are exported. A contact that lacks some of these keys is still written, without
    /// those properties.
    public static func descriptorForRequiredKeys() -> ContactKeySet {
        ContactKeySet.all.subtracting([.note, .thumbnailImageData, .imageDataAvailable])
    }

    /// Returns the contacts as one vCard file: one card per contact, in order.
    ///
    /// Only the keys each contact holds are read (``Contact/isKeyAvailable(_:)``), so a partial
    /// contact writes what it has; the note is written when its key is available and it is not
    /// empty. Lines end in CR LF and are folded at 75 octets. No contact makes this function
    /// fail; it throws, as the framework's does, so that a limit added later can be reported.
    ///
    /// With `writingClientIdentity`, a contact a CardDAV client wrote is written as that client
    /// gave it: its kept `UID` and `FN` stand in for the identifier and the formatted name (a
    /// CardDAV server serves cards so). Without it, as for an export, the `UID` is always the
    /// identifier, which is what an import finds the contact by; the other kept properties are
    /// written either way.
    public static func data(
        with contacts: [Contact], version: VCardVersion = .v3_0, writingClientIdentity: Bool = false
    ) throws -> Data {
        var writer = VCardWriter(version: version)
        writer.writesClientIdentity = writingClientIdentity
        for contact in contacts {
            writer.write(contact)
        }
        return Data(writer.bytes)
    }

    /// Returns the mutable contacts as one vCard file; see ``data(with:version:)``.
    public static func data(
        with contacts: [MutableContact], version: VCardVersion = .v3_0, writingClientIdentity: Bool = false
    ) throws -> Data {
        try data(with: contacts.map { $0.copy() }, version: version, writingClientIdentity: writingClientIdentity)
    }

    /// Parses vCard data into new contacts, in file order, like the framework's method.
    ///
    /// - Throws: ``ContactStoreError`` with code ``ContactStoreError/Code/vCardMalformed`` when
    ///   any card is rejected (its message names the first such card, by index and line) or
    ///   the data is larger than ``dataBytesMax``. Use ``read(_:strict:fallbackEncoding:)`` to
    ///   keep the good cards of a file with bad ones, and to see the warnings.
    public static func contacts(with data: Data) throws -> [MutableContact] {
        let result = try read(data)
        if let first = result.rejected.first {
            let more = result.rejected.count > 1 ? " (and \(result.rejected.count - 1) more rejected cards)" : ""
            throw ContactStoreError(.vCardMalformed, first.description + more)
        }
        return result.contacts.map(\.contact)
    }

    /// Reads vCard data: the contacts of the cards that could be read, the cards that could not,
    /// and what was read leniently.
    ///
    /// - Parameters:
    ///   - data: vCard 2.1, 3.0 or 4.0 text, in UTF-8, UTF-16 (with or without a byte order
    ///     mark) or an 8-bit character set; several cards may follow one another.
    ///   - strict: When true, the first rejected card is thrown as a ``VCardCardError`` instead
    ///     of being listed in ``VCardImport/rejected``.
    ///   - fallbackEncoding: How to read a value that has no `CHARSET` parameter and is not
    ///     valid UTF-8; Windows-1252 (the default) is what Outlook writes and also reads
    ///     ISO-8859-1 text correctly. Pass `.windowsCP1251` or `.shiftJIS`, say, for a file
    ///     known to come from a Russian or Japanese system.
    /// - Throws: ``VCardCardError`` in strict mode; ``ContactStoreError`` with code
    ///   ``ContactStoreError/Code/vCardMalformed`` when the data is larger than
    ///   ``dataBytesMax``, empty, or not vCard text at all (its message names what it holds:
    ///   "not a vCard file: it starts with PNG image data").
    ///   - keepingOtherProperties: Whether a card's properties that no key maps are kept, each
    ///     as its content line, in ``ContactKey/vCardExtensions``, so that writing the contact
    ///     gives them back (a CardDAV server keeps a client's card whole this way); off for an
    ///     import, which keeps what the model holds.
    public static func read(
        _ data: Data, strict: Bool = false, fallbackEncoding: String.Encoding = .windowsCP1252,
        keepingOtherProperties: Bool = false
    ) throws -> VCardImport {
        guard data.count <= dataBytesMax else {
            throw ContactStoreError(
                .vCardMalformed, "vCard data of \(data.count) bytes is larger than the limit of \(dataBytesMax) bytes")
        }
        var reader = VCardFileReader(fallbackEncoding: charsetEncoding(fallbackEncoding))
        reader.keepsOtherProperties = keepingOtherProperties
        let result = try reader.read(data)
        if strict, let first = result.rejected.first {
            throw first
        }
        return result
    }

    /// Why `data` cannot be a vCard file (it is empty, or it is an image, an archive, a PDF or
    /// text without a `BEGIN:VCARD`), in words such as "not a vCard file: it starts with PNG
    /// image data"; nil when it holds a card to read. ``read(_:strict:fallbackEncoding:)``
    /// throws this; a caller with several files can check them all before importing any.
    public static func fileProblem(_ data: Data) -> String? {
        var (bytes, _) = VCardFileReader.decodeFileEncoding(data)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        return VCardFileKind.problem(ofFile: data, text: bytes)
    }

    private static func charsetEncoding(_ encoding: String.Encoding) -> VCardCharset.Encoding {
        switch encoding {
        case .utf8: .utf8
        case .isoLatin1: .latin1
        case .windowsCP1252: .windows1252
        default: .foundation(encoding)
        }
    }
}
