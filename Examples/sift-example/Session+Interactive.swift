import Foundation
import Sift
import SobrietyTracker

extension Session {
    static let help = """
        commands:
          search TEXT        search by meaning (e.g. "search nights I felt lonely")
          log N              log trigger N (LogTriggerOccurrence)
          private DAY        mark day DAY (41–54) private; "public DAY" undoes it
          open URL           open a result's URL (OpenEntity)
          suggest            suggestions from the donation log
          list               the app's days, triggers and reflections
          help, quit
        """

    /// A line-based UI over the same app.
    func runInteractive() async {
        do {
            let report = try await app.indexEverything()
            print("Indexed \(report.days.indexed) days, \(report.triggers.indexed) triggers, \(report.reflections.indexed) reflections.")
        } catch {
            print("indexing failed: \(error)")
            return
        }
        print(Self.help)
        while true {
            print("> ", terminator: "")
            fflush(nil)
            guard let line = readLine() else { break }
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            let (command, argument) = split(trimmed)
            do {
                switch command {
                case "": continue
                case "quit", "exit", "q": return
                case "help", "?": print(Self.help)
                case "search", "s": _ = try await search(argument, limit: 6)
                case "log":
                    guard let id = Int(argument) else {
                        print("usage: log N (a trigger number; see list)")
                        continue
                    }
                    let t = try await app.perform(LogTriggerOccurrence(trigger: id, surface: .app))
                    print("logged \"\(t.name)\" (\(t.occurrences.count) times); donated LogTriggerOccurrence")
                case "private", "public":
                    guard let n = Int(argument), let day = await app.store.allDays().first(where: { $0.dayNumber == n }) else {
                        print("usage: \(command) DAY (a day number, 41–54)")
                        continue
                    }
                    let outcome = try await app.perform(MarkDayPrivate(day: day.id, isPrivate: command == "private"))
                    print(
                        command == "private"
                            ? "Day \(n) is private; deleted from the index: \(outcome.indexing.deleted)"
                            : "Day \(n) is public; indexed: \(outcome.indexing.indexed)")
                case "open": await open(argument, surface: .app)
                case "suggest": await printSuggestions()
                case "list": await list()
                default: print("unknown command \"\(command)\"; type help")
                }
            } catch {
                print("error: \(error)")
            }
        }
    }

    private func split(_ line: String) -> (String, String) {
        guard let space = line.firstIndex(of: " ") else { return (line.lowercased(), "") }
        return (line[..<space].lowercased(), line[line.index(after: space)...].trimmingCharacters(in: .whitespaces))
    }

    private func list() async {
        for d in await app.store.allDays() {
            print("  day \(d.dayNumber)\(d.isPrivate ? " (private)" : ""): \(d.headline)  \(app.entities.url(for: d) ?? "")")
        }
        for t in await app.store.allTriggers() {
            print("  trigger \(t.id)\(t.isArchived ? " (archived)" : ""): \(t.name)  \(app.entities.url(for: t) ?? "")")
        }
        for r in await app.store.allReflections() {
            print("  reflection \(r.id)\(r.isPrivate ? " (private)" : ""): \(r.title)  \(app.entities.url(for: r) ?? "")")
        }
    }
}
