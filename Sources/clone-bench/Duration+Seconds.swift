extension Duration {
    /// Seconds as a `Double`, the unit the benchmark prints and divides by.
    var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) * 1e-18
    }
}
