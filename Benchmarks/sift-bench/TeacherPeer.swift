import Foundation

/// The teacher model's throughput on the same texts, through `Benchmarks/peers/teacher_peer.py`
/// in the training pipeline's venv. Optional: absent venv → skipped with a reason.
enum TeacherPeer {
    struct Outcome {
        var perSecond: Double?
        var texts: Int
        var model: String
        /// Why there is no figure, when there is none.
        var skipped: String?
    }

    /// The peer script: next to this source tree, or under the current directory.
    static func scriptPath() -> String? {
        let fromSource = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("peers/teacher_peer.py").path
        let fromCWD = FileManager.default.currentDirectoryPath + "/Benchmarks/peers/teacher_peer.py"
        return [fromSource, fromCWD].first { FileManager.default.fileExists(atPath: $0) }
    }

    static func defaultPython() -> String {
        let env = ProcessInfo.processInfo.environment
        let cache =
            env["SIFT_TRAIN_CACHE"].flatMap { $0.isEmpty ? nil : $0 }
            ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".cache/sift-train").path
        return cache + "/venv/bin/python"
    }

    static func run(texts: [String], python: String?, workDirectory: String) -> Outcome {
        let python = python ?? defaultPython()
        guard FileManager.default.isExecutableFile(atPath: python) else {
            return Outcome(
                texts: texts.count, model: "teacher", skipped: "no teacher venv at \(python) (make it with Models/pipeline/setup_venv.sh)")
        }
        guard let script = scriptPath() else {
            return Outcome(texts: texts.count, model: "teacher", skipped: "Benchmarks/peers/teacher_peer.py not found")
        }
        let file = workDirectory + "/teacher-texts.txt"
        do {
            try (texts.joined(separator: "\n") + "\n").write(toFile: file, atomically: true, encoding: .utf8)
        } catch {
            return Outcome(texts: texts.count, model: "teacher", skipped: "cannot write \(file): \(error)")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [script, file, "--threads", "1", "--json"]
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        do { try process.run() } catch {
            return Outcome(texts: texts.count, model: "teacher", skipped: "cannot start \(python): \(error)")
        }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0,
            let line = String(decoding: outData, as: UTF8.self).split(separator: "\n").last,
            let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
            let perSecond = (object["per_s"] as? NSNumber)?.doubleValue
        else {
            let message = String(decoding: errData, as: UTF8.self).split(separator: "\n").last.map(String.init) ?? "no output"
            return Outcome(
                texts: texts.count, model: "teacher", skipped: "teacher peer failed (exit \(process.terminationStatus)): \(message)")
        }
        let model = object["model"] as? String ?? "all-MiniLM-L6-v2"
        return Outcome(perSecond: perSecond, texts: (object["texts"] as? NSNumber)?.intValue ?? texts.count, model: "\(model), 1 thread")
    }
}
