/// The reference (and place) a parent's line gives each child it lists before the children's rows
/// come, kept as runs: a line lists its new children together and they take consecutive ids, so
/// one run stands for a whole list — a few words per list where an entry per child cost a hash
/// bucket and an allocation, the largest part of what a large import held.
///
/// Runs come in ascending id order (ids are handed out ascending); a value that cannot extend or
/// follow them is refused, and the caller keeps it elsewhere.
struct EarlyLinkRuns {
    private struct Run {
        var firstID: Int64
        var count: Int64
        var column: Int32
        /// -1 when the list has no place column.
        var positionColumn: Int32
        var value: Int64
        var firstPosition: Int64
        var remaining: Int64
    }

    private var runs: [Run] = []
    private var spent = 0

    var isEmpty: Bool { runs.count == spent }

    /// Records that row `id` takes `value` at link column `column` and, when given, `position` at
    /// `positionColumn`. False when it cannot be kept as a run.
    mutating func add(id: Int64, column: Int, value: Int64, positionColumn: Int?, position: Int64) -> Bool {
        let place = Int32(positionColumn ?? -1)
        if let last = runs.last {
            let end = last.firstID + last.count
            if id == end, last.column == Int32(column), last.positionColumn == place, last.value == value,
                place < 0 || position == last.firstPosition + last.count
            {
                runs[runs.count - 1].count += 1
                runs[runs.count - 1].remaining += 1
                return true
            }
            guard id >= end else { return false }
        }
        runs.append(Run(firstID: id, count: 1, column: Int32(column), positionColumn: place, value: value, firstPosition: position, remaining: 1))
        return true
    }

    /// Writes the values row `id` was given into `links` and forgets them; false when it has none.
    mutating func take(_ id: Int64, into links: inout [Int64?]) -> Bool {
        // The last run starting at or before `id`.
        var low = 0, high = runs.count
        while low < high {
            let middle = (low + high) / 2
            if runs[middle].firstID <= id { low = middle + 1 } else { high = middle }
        }
        guard low > 0 else { return false }
        let index = low - 1
        let run = runs[index]
        guard id < run.firstID + run.count, run.remaining > 0 else { return false }
        links[Int(run.column)] = run.value
        if run.positionColumn >= 0 { links[Int(run.positionColumn)] = run.firstPosition + (id - run.firstID) }
        runs[index].remaining -= 1
        if run.remaining == 1 {
            spent += 1
            // Spent runs are dropped together once they are half of the runs: no search runs
            // over many of them, and no run is removed from the middle one at a time.
            if spent * 2 > runs.count {
                runs.removeAll { $0.remaining == 0 }
                spent = 0
            }
        }
        return true
    }
}
