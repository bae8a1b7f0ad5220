// Parse / validate / form timing of the Registry module, built by bench/run.sh with `swiftc -O`
// against the object files of the release build (no target in Package.swift).
//
//   bench-micro FILE…   one JSON line per file and step: {"file", "bytes", "step", "ns", "ns_per_kb"}
//
// Steps, each timed on the same text in the same process:
//   parse     JSONParser.parse(text)                         the project's own parser, default options
//   validate  SchemaRules.validate(text)                     parse (duplicate keys rejected) + shape rules
//   form      FormWriter.write(formOf: document, …)          from the validated document, the body the /form
//                                                            handler renders (fields, payload-size bounds)
//   dryrun    validate + compatibility against the same text + payload bound + form + JSON bytes:
//             the CPU part of POST …:validate
//   write     JSONWriter.bytes(.string(text))   the text as a JSON string value, as GET and list
//                                               put json_schema into their bodies
//   sha256    SHA256.hexHash(text bytes)         hashing a text (tokens, idempotency bodies) per KB
// Each step runs in batches of at least 50 ms (BENCH_MICRO_BATCH_MS) after a warm-up; the figure is the fastest batch's
// mean, the usual way to keep scheduler noise on a shared machine out of a CPU-bound timing.
import Registry

#if canImport(Glibc)
import Glibc
#endif

@inline(never) func blackHole<T>(_ value: T) { withExtendedLifetime(value) {} }

func readFile(_ path: String) -> String? {
    guard let file = fopen(path, "rb") else { return nil }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while true {
        let n = fread(&buffer, 1, buffer.count, file)
        if n <= 0 { break }
        bytes.append(contentsOf: buffer[0..<n])
    }
    return String(decoding: bytes, as: UTF8.self)
}

func nanoseconds(_ duration: Duration) -> Double {
    let (seconds, attoseconds) = duration.components
    return Double(seconds) * 1e9 + Double(attoseconds) / 1e9
}

/// Batch length in nanoseconds: BENCH_MICRO_BATCH_MS (default 50; --quick uses less).
let batchNanoseconds: Double = {
    guard let text = getenv("BENCH_MICRO_BATCH_MS"), let ms = Double(String(cString: text)), ms > 0 else { return 50e6 }
    return ms * 1e6
}()

/// Mean nanoseconds per call of the fastest batch.
func time(_ body: () -> Void) -> Double {
    let clock = ContinuousClock()
    for _ in 0..<3 { body() }
    var iterations = 1
    while nanoseconds(clock.measure { for _ in 0..<iterations { body() } }) < batchNanoseconds { iterations *= 2 }
    var best = Double.infinity
    for _ in 0..<5 {
        let elapsed = nanoseconds(clock.measure { for _ in 0..<iterations { body() } })
        best = min(best, elapsed / Double(iterations))
    }
    return best
}

/// The body GET …/form renders once the stored schema is validated, byte for byte: FormJSON.body in
/// RegistryAPI (not linked here) is `{"form":` + this writer + `}` and a newline.
func formBytes(_ document: SchemaDocument) -> [UInt8] {
    var body = Array(#"{"form":"#.utf8)
    FormWriter.write(formOf: document, application: "BENCH-APP01", attributesType: "BenchAttributes", version: 5, into: &body)
    body.append(contentsOf: "}\n".utf8)
    return body
}

@main
struct Micro {
    static func main() {
        let paths = CommandLine.arguments.dropFirst()
        guard !paths.isEmpty else {
            fputs("usage: bench-micro SCHEMA.json…\n", stderr)
            exit(2)
        }
        for path in paths {
            guard let text = readFile(path) else {
                fputs("cannot read \(path)\n", stderr)
                exit(1)
            }
            let document: SchemaDocument
            do {
                document = try SchemaRules.validate(text)
            } catch {
                fputs("\(path): \(error)\n", stderr)
                exit(1)
            }
            let bytes = text.utf8.count
            let steps: [(String, () -> Void)] = [
                ("parse", { blackHole(try? JSONParser.parse(text)) }),
                ("validate", { blackHole(try? SchemaRules.validate(text)) }),
                ("form", { blackHole(formBytes(document)) }),
                ("dryrun", {
                    guard let fresh = try? SchemaRules.validate(text) else { return }
                    blackHole(Compatibility.problems(from: document, oldVersion: 1, to: fresh))
                    blackHole(PayloadSizeEstimator.worstCaseStartPayloadBytes(of: fresh, attributesType: "BenchAttributes"))
                    blackHole(formBytes(fresh))
                }),
                ("write", { blackHole(JSONWriter.bytes(.string(text))) }),
                ("sha256", { blackHole(SHA256.hexHash(Array(text.utf8))) }),
            ]
            for (step, body) in steps {
                let ns = time(body)
                let perKB = ns / (Double(bytes) / 1024)
                print(#"{"file":"\#(path)","bytes":\#(bytes),"step":"\#(step)","ns":\#(Int(ns)),"ns_per_kb":\#(Int(perKB))}"#)
            }
        }
    }
}
