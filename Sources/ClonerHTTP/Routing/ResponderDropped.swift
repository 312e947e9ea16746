/// The handler let go of its responder without answering.
struct ResponderDropped: Error, CustomStringConvertible {
    var description: String { "handler released its HTTPResponder without responding" }
}
