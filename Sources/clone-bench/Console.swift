import Foundation

/// Standard output written line by line, unbuffered: the suite runs for minutes, and its progress
/// must show as it goes even when piped to a file (where `print` would hold it back).
enum Console {
    static func line(_ text: String = "") {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }
}
