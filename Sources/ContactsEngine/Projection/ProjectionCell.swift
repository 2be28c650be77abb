import ContactsModel
import Foundation

/// A store's projection and its search indexes, each at an address that never changes, read and
/// written where they lie.
///
/// A copy of the projection would retain and release every buffer it holds; planning and fetches
/// read the state many times a second under locks, so they borrow it in place instead. The cell
/// owns the two allocations; its owner guards every access with its own locks.
package final class ProjectionCell: @unchecked Sendable {
    // Thread-safety: none of its own; the owner's locks guard `projection` and `indexes`.
    @usableFromInline let projectionStorage: UnsafeMutablePointer<Projection>
    @usableFromInline let indexesStorage: UnsafeMutablePointer<SearchIndexes>

    /// Takes `projection`, keeping its search indexes apart from it: the projection's own are
    /// left empty, and ``indexes`` holds them.
    package init(_ projection: Projection) {
        var state = projection
        indexesStorage = .allocate(capacity: 1)
        indexesStorage.initialize(to: state.indexes)
        state.indexes = SearchIndexes(defaultCountryCode: state.indexes.defaultCountryCode)
        projectionStorage = .allocate(capacity: 1)
        projectionStorage.initialize(to: state)
    }

    deinit {
        projectionStorage.deinitialize(count: 1)
        projectionStorage.deallocate()
        indexesStorage.deinitialize(count: 1)
        indexesStorage.deallocate()
    }

    /// The state without its search indexes, read and written in place.
    @inlinable package var projection: Projection {
        unsafeAddress { UnsafePointer(projectionStorage) }
        unsafeMutableAddress { projectionStorage }
    }

    /// Whether the projection's indexes were left unbuilt, for a read that wants them to build
    /// (``Projection/hasDeferredIndexes``), read where the flag lies: every read that uses the
    /// indexes asks, and asking through ``projection`` would copy the whole projection out of its
    /// storage for the getter, retaining and releasing every buffer it holds (see
    /// ``ProjectionStateView``).
    package var hasDeferredIndexes: Bool { projectionStorage.pointee.indexesDeferred }

    /// The search indexes of ``projection``, read and written in place.
    @inlinable package var indexes: SearchIndexes {
        unsafeAddress { UnsafePointer(indexesStorage) }
        unsafeMutableAddress { indexesStorage }
    }

    /// Calls `body` with the projection and the indexes, borrowed where they lie.
    @inlinable
    package func read<R>(_ body: (borrowing Projection, borrowing SearchIndexes) throws -> R) rethrows -> R {
        try Self.borrowPointee(UnsafePointer(projectionStorage)) { projection in
            try Self.borrowPointee(UnsafePointer(indexesStorage)) { indexes in try body(projection, indexes) }
        }
    }

    /// Calls `body` with the projection, borrowed where it lies, and `indexes` in place of the
    /// cell's own: for a read that does not look at them, which then need not wait for a writer
    /// of the cell's indexes.
    @inlinable
    package func readProjection<R>(
        with indexes: borrowing SearchIndexes, _ body: (borrowing Projection, borrowing SearchIndexes) throws -> R
    ) rethrows -> R {
        try Self.borrowPointee(UnsafePointer(projectionStorage)) { projection in try body(projection, indexes) }
    }

    /// The projection as the base of a save planner's staged view, read in place; valid while
    /// the cell is alive and its owner holds the projection's read lock.
    package var stateView: ProjectionStateView { ProjectionStateView(projectionStorage) }

    /// Calls `body` with the value at `pointer`, borrowed where it lies. A release build copies
    /// a copyable value read out of a pointer to pass it on; a function generic over a pointee
    /// that may be noncopyable cannot copy it, and passes it on in place, which its
    /// specializations keep.
    @inlinable @inline(__always)
    static func borrowPointee<Value: ~Copyable, Result>(
        _ pointer: UnsafePointer<Value>, _ body: (borrowing Value) throws -> Result
    ) rethrows -> Result {
        try body(pointer.pointee)
    }
}

/// A projection read in place, as the base of a planner's ``LedgerStateReading`` lookups.
///
/// Each read goes to the stored properties it needs (`projection.pointee.contacts`), never
/// through an instance method of `Projection`: a release build copies the whole projection out
/// of the pointer for a method call, retaining and releasing every buffer it holds, while a
/// stored property costs the retains of its own buffers at most.
package struct ProjectionStateView: LedgerStateReading {
    private let projection: UnsafePointer<Projection>

    init(_ storage: UnsafeMutablePointer<Projection>) { projection = UnsafePointer(storage) }

    package var defaultContainer: Container { projection.pointee.defaultContainer }
    package func contact(_ identifier: String) -> ContactState? {
        guard let slot = projection.pointee.contacts.slot(of: identifier) else { return nil }
        return Projection.state(
            at: slot, in: projection.pointee.contacts,
            containerIdentifiers: projection.pointee.containerIdentifiers, creators: projection.pointee.creators)
    }
    package func group(_ identifier: String) -> GroupState? { projection.pointee.groupsByIdentifier[identifier] }
    package func container(_ identifier: String) -> Container? { projection.pointee.containers[identifier] }
    package func groups(containing contactIdentifier: String) -> [String] {
        Projection.groups(containing: contactIdentifier, in: projection.pointee.groupsByIdentifier)
    }
    package func access(of client: String) -> ClientAccess? { projection.pointee.accessByClient[client] }
    package func grants(of client: String) -> Set<String> { projection.pointee.grantsByClient[client] ?? [] }
    package func sequence(ofRequest requestID: UUID) -> UInt64? { projection.pointee.requests[requestID] }
    package func links(of contactIdentifier: String) -> [String] {
        projection.pointee.linksByContact[contactIdentifier] ?? []
    }
}
