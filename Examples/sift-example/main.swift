// The sample app's session: scripted when stdin is not a terminal
// (`swift run sift-example < /dev/null`), a small line-based UI when it is.
import Foundation
import Sift
import SobrietyTracker

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

let interactive = isatty(STDIN_FILENO) != 0
do {
    let session = try await Session.start(interactive: interactive)
    if interactive {
        await session.runInteractive()
    } else {
        try await session.runScript()
    }
} catch {
    FileHandle.standardError.write(Data("sift-example: \(error)\n".utf8))
    exit(1)
}
