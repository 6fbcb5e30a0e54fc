import Foundation
import Sift

nonisolated(unsafe) let commands: [any Command.Type] = [
    IndexCommand.self, SearchCommand.self, DeleteCommand.self, DonateCommand.self, SuggestCommand.self,
    StatsCommand.self, EmbedCommand.self, EvalCommand.self, CheckCommand.self,
]

func topLevelHelp() -> String {
    var lines = ["sift — on-device semantic search", "", "usage: sift COMMAND [options]", "", "commands:"]
    for c in commands { lines.append("  " + c.spec.name.padding(toLength: 10, withPad: " ", startingAt: 0) + (c.spec.summary.split(separator: ".").first.map(String.init) ?? "")) }
    lines += ["", "Run `sift COMMAND --help` for a command's options."]
    return lines.joined(separator: "\n")
}

func fail(_ message: String, status: ExitStatus) -> Never {
    FileHandle.standardError.write(Data("sift: \(message)\n".utf8))
    exit(status.rawValue)
}

var arguments = Array(CommandLine.arguments.dropFirst())
guard let name = arguments.first else { print(topLevelHelp()); exit(ExitStatus.usage.rawValue) }
if name == "-h" || name == "--help" || name == "help" { print(topLevelHelp()); exit(0) }
guard let command = commands.first(where: { $0.spec.name == name }) else {
    fail("unknown command '\(name)'\n\n" + topLevelHelp(), status: .usage)
}
arguments.removeFirst()
do {
    let parsed = try ParsedArguments(arguments, spec: command.spec)
    if parsed.flag("--help") { print(command.spec.help); exit(0) }
    let status = try await command.run(CommandContext(arguments: parsed))
    exit(status.rawValue)
} catch let error as UsageError {
    fail("\(error)\n\n\(command.spec.help)", status: .usage)
} catch {
    fail("\(error)", status: .failure)
}
