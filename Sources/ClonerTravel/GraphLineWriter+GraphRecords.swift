import ClonerModel
import ClonerStore

extension GraphLineWriter {
    /// A value the export read into `batch`, in its attribute's JSON form: the same bytes
    /// `value(_:)` writes for the value a fetch would give, without the `AttributeValue` (its
    /// `String` or `Data`) in between.
    mutating func value(_ value: GraphRecordBatch.Value, type: AttributeType, in batch: GraphRecordBatch) {
        switch value {
        case .null: null()
        case .integer(let number):
            switch type {
            case .date: self.value(.date(millisecondsSince1970: number))
            case .boolean: self.value(.boolean(number != 0))
            default: integer(number)
            }
        case .double(let number): self.value(.double(number))
        case .bytes(let range):
            batch.withBytes(range) { utf8 in
                switch type {
                case .binary: binary(utf8)
                case .json: json(utf8: utf8)
                default: string(utf8: utf8)
                }
            }
        case .uuid(let uuid): self.uuid(uuid)
        case .other(let other): self.value(other)
        case .blob: preconditionFailure("a binary value left in the store is streamed by the export, not written from a batch")
        }
    }
}
