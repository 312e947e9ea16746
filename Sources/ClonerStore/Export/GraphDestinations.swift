/// Destination lists for a batch of sources — `width` lists per source, one per relationship —
/// kept in one flat array that batch after batch reuses. `destinationIDs` answers a dictionary of
/// arrays, an allocation and a hash per source; the walk and the export read a batch's lists
/// in the batch's own order, so a position per source is all they need.
///
/// The store fills it from rows grouped by source (`append`, then `endList` per query) or one
/// source at a time (`set`); a source's position is found by binary search in the sources
/// sorted once per batch, so rows may come in any order of sources.
public struct GraphDestinations: Sendable {
    public private(set) var sources: [Int64] = []
    public private(set) var width = 1
    /// Positions of `sources` in ascending order of their ids (empty when `sources` are ascending).
    private var order: [Int] = []
    /// Per source and list: where its destinations start and end in `flat`.
    private var bounds: [Int] = []
    private var flat: [Int64] = []
    /// The list being filled by `append`: its source's position, or -1.
    private var openPosition = -1
    private var openSource: Int64 = 0
    private var openList = 0
    private var openStart = 0

    public init() {}

    /// Empties the lists for `sources` (distinct: each object once), `width` lists each.
    mutating func reset(sources: [Int64], width: Int) {
        self.sources = sources
        self.width = width
        order.removeAll(keepingCapacity: true)
        var ascending = true
        for index in sources.indices.dropFirst() where sources[index - 1] >= sources[index] {
            ascending = false
            break
        }
        if !ascending {
            order.append(contentsOf: sources.indices)
            order.sort { sources[$0] < sources[$1] }
            for index in order.indices.dropFirst() {
                precondition(sources[order[index - 1]] != sources[order[index]], "source \(sources[order[index]]) given twice")
            }
        }
        bounds.removeAll(keepingCapacity: true)
        bounds.append(contentsOf: repeatElement(0, count: sources.count * width * 2))
        flat.removeAll(keepingCapacity: true)
        openPosition = -1
    }

    /// The position of `id` among `sources`, or nil.
    func position(of id: Int64) -> Int? {
        var low = 0
        var high = sources.count
        if order.isEmpty {
            while low < high {
                let middle = (low + high) / 2
                if sources[middle] < id { low = middle + 1 } else { high = middle }
            }
            return low < sources.count && sources[low] == id ? low : nil
        }
        while low < high {
            let middle = (low + high) / 2
            if sources[order[middle]] < id { low = middle + 1 } else { high = middle }
        }
        return low < order.count && sources[order[low]] == id ? order[low] : nil
    }

    /// List `list` of the source at `position`, in the order the store gave.
    public func destinations(of position: Int, list: Int = 0) -> ArraySlice<Int64> {
        let slot = (position * width + list) * 2
        return flat[bounds[slot]..<bounds[slot + 1]]
    }

    /// Sets list `list` of the source at `position` whole: a to-one read with its row.
    mutating func set(_ destination: Int64?, of position: Int, list: Int) {
        let slot = (position * width + list) * 2
        bounds[slot] = flat.count
        if let destination { flat.append(destination) }
        bounds[slot + 1] = flat.count
    }

    /// Adds a row of a query answering list `list` with its rows grouped by source; a source that
    /// is not among `sources` is passed over.
    mutating func append(_ destination: Int64, source: Int64, list: Int) {
        if openPosition < 0 || source != openSource || list != openList {
            endList()
            guard let position = position(of: source) else { return }
            openPosition = position
            openSource = source
            openList = list
            openStart = flat.count
        }
        flat.append(destination)
    }

    /// Closes the list `append` was filling (after a query's last row).
    mutating func endList() {
        guard openPosition >= 0 else { return }
        let slot = (openPosition * width + openList) * 2
        bounds[slot] = openStart
        bounds[slot + 1] = flat.count
        openPosition = -1
    }
}
