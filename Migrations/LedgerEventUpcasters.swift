/// The upcasters of the journal's event payloads, as shipped: one per schema version that is no
/// longer current.
///
/// When version N + 1 is introduced, an upcaster with `sourceVersion` N is added here (in a file
/// of its own, `UpcastEventV1ToV2.swift` and so on) and never edited afterwards;
/// `Documentation/EventSchema.md` lists what each one does.
public enum LedgerEventUpcasters {
    /// Every shipped upcaster of event payloads.
    public static let all: [any Upcaster] = [UpcastEventV1ToV2()]
}
