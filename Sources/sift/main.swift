import Foundation
import Sift
import SiftCommandLine

let commands: [any Command.Type] = [
    IndexCommand.self, SearchCommand.self, DeleteCommand.self, DonateCommand.self, SuggestCommand.self,
    StatsCommand.self, EmbedCommand.self, EvalCommand.self, CheckCommand.self,
]

let overview = HelpText.overview(program: "sift", about: "on-device semantic search", commands: commands.map { $0.spec })

var arguments = Array(CommandLine.arguments.dropFirst())
guard let name = arguments.first else {
    print(overview)
    exit(ExitStatus.usage.rawValue)
}
if name == "-h" || name == "--help" || name == "help" {
    print(overview)
    exit(0)
}
guard let command = commands.first(where: { $0.spec.name == name }) else {
    CommandLineTool.fail("unknown command '\(name)'\n\n" + overview, program: "sift", status: .usage)
}
arguments.removeFirst()
await CommandLineTool.run(arguments, spec: command.spec) { try await command.run(CommandContext(arguments: $0)) }
