/// A set of `_id`s for the walk and the export, which ask "seen this one?" once or more per
/// object and per link: open addressing over one flat array with a multiplicative hash, where
/// `Set<Int64>` runs every id through a seeded SipHash (which showed in profiles of `cloner
/// export`). Ids handed out in order, as a
/// store's are, spread evenly under the multiplier. `contains` is inlinable: the
/// export asks from another module, once per link it writes.
public struct GraphIDSet: Sendable {
    /// Empty slots hold `Int64.min`; that id itself is kept aside in `holdsMinimum`.
    @usableFromInline var slots: [Int64] = []
    @usableFromInline var shift = 64
    @usableFromInline var holdsMinimum = false
    public private(set) var count = 0

    public init() {}

    @inlinable
    public func contains(_ id: Int64) -> Bool {
        if id == .min { return holdsMinimum }
        guard !slots.isEmpty else { return false }
        return slots.withUnsafeBufferPointer { slots in
            let mask = slots.count - 1
            var index = bucket(id)
            while true {
                let held = slots[index]
                if held == id { return true }
                if held == .min { return false }
                index = (index + 1) & mask
            }
        }
    }

    /// Adds `id`; false when it was there already.
    @discardableResult
    public mutating func insert(_ id: Int64) -> Bool {
        if id == .min {
            guard !holdsMinimum else { return false }
            holdsMinimum = true
            count += 1
            return true
        }
        // At most half full: probes stay short.
        if (count + 1) * 2 > slots.count { grow() }
        let inserted = place(id)
        if inserted { count += 1 }
        return inserted
    }

    @inlinable
    func bucket(_ id: Int64) -> Int {
        Int(truncatingIfNeeded: (UInt64(bitPattern: id) &* 0x9E37_79B9_7F4A_7C15) >> UInt64(shift))
    }

    private mutating func place(_ id: Int64) -> Bool {
        let start = bucket(id)
        return slots.withUnsafeMutableBufferPointer { slots in
            let mask = slots.count - 1
            var index = start
            while true {
                let held = slots[index]
                if held == id { return false }
                if held == .min {
                    slots[index] = id
                    return true
                }
                index = (index + 1) & mask
            }
        }
    }

    private mutating func grow() {
        let old = slots
        let capacity = Swift.max(16, old.count * 2)
        slots = [Int64](repeating: .min, count: capacity)
        shift = 64 - capacity.trailingZeroBitCount
        for id in old where id != .min { _ = place(id) }
    }
}
