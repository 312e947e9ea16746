import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// An element of a parsed XML document: just what a Core Data `contents` file needs (names,
/// attributes, children; no text nodes — the format keeps everything in attributes).
struct XMLNode: Sendable {
    var name: String
    var attributes: [String: String]
    var children: [XMLNode]
    /// 1-based line of the start tag, for messages about the element.
    var line: Int

    func children(named name: String) -> [XMLNode] { children.filter { $0.name == name } }
    func child(named name: String) -> XMLNode? { children.first { $0.name == name } }
}

/// Builds an `XMLNode` tree with Foundation's `XMLParser` (libxml2 underneath), which handles
/// encodings, entities and CDATA as the XML 1.0 specification says; a hand-written reader would not.
///
/// Not thread-safe: one builder per parse, used on the calling thread.
final class XMLTreeBuilder: NSObject, XMLParserDelegate {
    private var stack: [XMLNode] = []
    private var root: XMLNode?
    private weak var parser: XMLParser?

    static func parse(_ data: Data, path: String) throws(ModelError) -> XMLNode {
        let parser = XMLParser(data: data)
        // External entities could read other files of the host: a model is data, not a program.
        parser.shouldResolveExternalEntities = false
        let builder = XMLTreeBuilder()
        builder.parser = parser
        parser.delegate = builder
        guard parser.parse(), let root = builder.root else {
            let reason = parser.parserError.map { "\($0.localizedDescription)" } ?? "no root element"
            throw ModelError(
                path: path,
                problems: [
                    ModelProblem(
                        message: "malformed XML at line \(parser.lineNumber), column \(parser.columnNumber): \(reason)")
                ])
        }
        return root
    }

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
        qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]
    ) {
        stack.append(XMLNode(name: elementName, attributes: attributeDict, children: [], line: parser.lineNumber))
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?) {
        guard let node = stack.popLast() else { return }
        if stack.isEmpty {
            root = node
        } else {
            stack[stack.count - 1].children.append(node)
        }
    }
}
