/// Encoding to the wire format. Written with `JSONWriter` (fixed member order, no
/// `JSONEncoder` per error answer).
extension Problem {
    public func jsonBytes() -> [UInt8] {
        var writer = JSONWriter(capacity: 192 + detail.utf8.count)
        write(to: &writer)
        return writer.bytes
    }

    public func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("type"); writer.string(type)
        writer.key("title"); writer.string(title)
        writer.key("status"); writer.integer(status)
        writer.key("detail"); writer.string(detail)
        writer.key("code"); writer.string(code.rawValue)
        if let requestId {
            writer.key("requestId"); writer.string(requestId)
        }
        if let field {
            writer.key("field"); writer.string(field)
        }
        if let errors {
            writer.key("errors")
            writer.beginArray()
            for error in errors {
                writer.beginObject()
                writer.key("field"); writer.string(error.field)
                writer.key("message"); writer.string(error.message)
                writer.endObject()
            }
            writer.endArray()
        }
        writer.endObject()
    }
}
