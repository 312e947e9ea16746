/// A value bound to the store SQL written once for every backend (`SQLStoreContext`): only the
/// kinds that SQL needs. Each backend turns it into its own value type as it binds it
/// (`SQLConnection`), so the shared code names no backend's types.
enum SQLArgument: Equatable {
    case null
    case integer(Int64)
    case text(String)
    /// A list of ids bound as one parameter and read back as rows through the dialect
    /// (`SQLDialect.among`, `.listed`): a list of any length is one statement with one plan.
    case ids([Int64])
}
