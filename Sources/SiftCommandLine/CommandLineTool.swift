import Foundation

/// How the three executables start: parse, answer `--help`, report usage errors with the
/// help (exit 2) and failures on their own (exit 1).
public enum CommandLineTool {
    /// Writes `program: message` to standard error and exits with `status`.
    public static func fail(_ message: String, program: String, status: ExitStatus) -> Never {
        FileHandle.standardError.write(Data("\(program): \(message)\n".utf8))
        exit(status.rawValue)
    }

    /// A usage error followed by the command's help, exit status 2.
    public static func fail(_ error: UsageError, spec: CommandSpec) -> Never {
        fail("\(error)\n\n\(spec.help)", program: spec.program, status: .usage)
    }

    /// Parses `arguments` and builds the options with `make`. `--help` prints the help and
    /// exits 0; a ``UsageError`` (of the parse or of `make`) exits 2, any other error 1.
    public static func parseOrExit<Options>(
        _ arguments: [String], spec: CommandSpec, _ make: (ParsedArguments) throws -> Options
    ) -> Options {
        do {
            let parsed = try ParsedArguments(arguments, spec: spec)
            if parsed.flag("--help") {
                print(spec.help)
                exit(ExitStatus.success.rawValue)
            }
            return try make(parsed)
        } catch let error as UsageError {
            fail(error, spec: spec)
        } catch {
            fail("\(error)", program: spec.program, status: .failure)
        }
    }

    /// Parses `arguments` against `spec`, exiting as ``parseOrExit(_:spec:_:)`` does.
    public static func parseOrExit(_ arguments: [String], spec: CommandSpec) -> ParsedArguments {
        parseOrExit(arguments, spec: spec) { $0 }
    }

    /// Runs one command to its end: parses `arguments` (see ``parseOrExit(_:spec:_:)``), runs
    /// `body` and exits with its status; a ``UsageError`` it throws exits 2 with the help, any
    /// other error 1.
    @MainActor
    public static func run(
        _ arguments: [String], spec: CommandSpec, _ body: (ParsedArguments) async throws -> ExitStatus
    ) async -> Never {
        let parsed = parseOrExit(arguments, spec: spec)
        do {
            exit(try await body(parsed).rawValue)
        } catch let error as UsageError {
            fail(error, spec: spec)
        } catch {
            fail("\(error)", program: spec.program, status: .failure)
        }
    }
}
