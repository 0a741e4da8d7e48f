import Foundation
import HybridLocalModel
import HybridLocalModelTestSupport
import HybridProjectTestSupport
import Testing

/// The llama-server that `make setup` built must run on any machine of its kind, not only on the one that built it:
/// on x86-64 its CPU library may use AVX2 at most (no AVX-512, AVX-VNNI or AMX, whose kernels died with SIGILL on
/// a machine that advertised them). Read from the built library itself, so a change to the build flags that lets
/// such code in fails here, on a machine that could run it, before it fails on one that cannot.
@Suite struct PortableBuildTests {
    private func buildFolder() throws -> URL? {
        guard let found = LocalModelRequirement.installed() else { return nil }
        return URL(fileURLWithPath: found.serverPath).deletingLastPathComponent().deletingLastPathComponent()
    }

    /// The lines of the build's `build-info.txt` (written by scripts/setup-local-model.sh).
    private func buildInfo(_ folder: URL) throws -> Set<String> {
        let info = try String(contentsOf: folder.appendingPathComponent("build-info.txt"), encoding: .utf8)
        return Set(info.split(separator: "\n").map(String.init))
    }

    @Test func theBuildIsRecordedAsPortable() throws {
        guard let folder = try buildFolder() else { return }
        let lines = try buildInfo(folder)
        #expect(lines.contains("flag=-DGGML_NATIVE=OFF"))
        #expect(lines.contains("flag=-DGGML_AMX_INT8=OFF") || !lines.contains("machine=x86_64"))
        #expect(lines.contains("baseline=x86-64-v3") || lines.contains("baseline=x86-64-v2") || lines.contains("baseline=armv8-a"))
        #expect(folder.lastPathComponent.contains("-x86-64-v") || folder.lastPathComponent.contains("-armv8-a"))
    }

    @Test func theCPULibraryHoldsNoInstructionBeyondTheBaseline() async throws {
        guard let folder = try buildFolder() else { return }
        #if arch(x86_64)
        // x86-64-v2 (a machine without AVX2) must not use the 256-bit registers at all.
        let v3 = try buildInfo(folder).contains("baseline=x86-64-v3")
        let library = folder.appendingPathComponent("bin/libggml-cpu.so").path
        // AVX-512 and AMX registers and instructions, the EVEX-only registers 16-31 and the VNNI dot products.
        let beyond = #"%zmm|%tmm|%k[0-7]\b|tilezero|ldtilecfg|tdpb|%[xy]mm(1[6-9]|2[0-9]|3[01])\b|vpdpbusd|vpdpwssd"#
        let script = """
            set -o pipefail
            objdump -d --no-show-raw-insn "$1" > "$2" || exit 2
            echo "ymm=$(grep -c '%ymm' "$2")"
            grep -E -m 5 '\(beyond)' "$2" || true
            """
        let listing = FileManager.default.temporaryDirectory.appendingPathComponent("ggml-cpu-\(UUID().uuidString).s")
        defer { try? FileManager.default.removeItem(at: listing) }
        let outcome = try await ChildProcess.run(
            URL(fileURLWithPath: "/bin/bash"), ["-c", script, "check", library, listing.path])
        #expect(outcome.status == 0, "objdump failed: \(outcome.stderr)")
        let lines = outcome.stdout.split(separator: "\n")
        let ymm = Int(lines.first?.dropFirst("ymm=".count) ?? "") ?? 0
        if v3 {
            #expect(ymm > 0, "no AVX2 code at all: the disassembly or the baseline is not what this test expects")
        } else {
            #expect(ymm == 0, "AVX code in an x86-64-v2 build")
        }
        #expect(lines.dropFirst().isEmpty, "instructions beyond x86-64-v3 in \(library):\n\(lines.dropFirst().joined(separator: "\n"))")
        #endif
    }
}
