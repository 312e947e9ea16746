/// What a clone-versus-SQL suite measures, the same on either store: the note sizes, the rounds
/// per size, the attachment size, and the gibibyte-of-attachments run.
struct BenchSizes {
    var items: [Int] = [1_000, 10_000, 100_000]
    var rounds = 3
    var attachmentBytes = 4_096
    var largeAttachmentCount = 256
    var largeAttachmentBytes = 4 << 20
    var includeLarge = true

    init() {}

    /// `--sizes`, `--rounds`, `--blob-bytes`, `--large-count`, `--large-bytes`, `--no-large`.
    init(_ arguments: BenchArguments) throws {
        items = try arguments.ints("--sizes", default: items)
        rounds = try arguments.int("--rounds", default: rounds)
        attachmentBytes = try arguments.int("--blob-bytes", default: attachmentBytes)
        largeAttachmentCount = try arguments.int("--large-count", default: largeAttachmentCount)
        largeAttachmentBytes = try arguments.int("--large-bytes", default: largeAttachmentBytes)
        includeLarge = !arguments.has("--no-large")
        precondition(rounds > 0, "--rounds must be positive")
    }

    /// The gibibyte run's label, e.g. "256×4MiB (1.0 GiB)".
    var largeLabel: String {
        let total = Double(largeAttachmentCount * largeAttachmentBytes) / Double(1 << 30)
        return String(format: "%d×%dMiB (%.1f GiB)", largeAttachmentCount, largeAttachmentBytes >> 20, total)
    }
}

extension BenchSizes {
    /// Runs `measure` once per note size, then once for the gibibyte run (a single round) when
    /// it is asked for.
    func measureEach<Result>(
        _ measure: (_ label: String, _ items: Int, _ blobBytes: Int, _ rounds: Int) throws -> Result
    ) rethrows -> (sizes: [Result], large: Result?) {
        let results = try items.map { try measure("\($0)", $0, attachmentBytes, rounds) }
        let large = includeLarge ? try measure(largeLabel, largeAttachmentCount, largeAttachmentBytes, 1) : nil
        return (results, large)
    }
}
