import Foundation

/// A Prometheus text exposition, parsed as far as the metric tests need: each family's type and
/// help text, and each sample's name and labels.
struct PrometheusExposition {
    struct Sample: Equatable {
        var name: String
        var labels: [String: String]
        var value: String
    }

    private(set) var types: [String: String] = [:]
    private(set) var help: [String: String] = [:]
    private(set) var samples: [Sample] = []

    init(_ text: String) {
        for line in text.split(separator: "\n").map(String.init) {
            if line.hasPrefix("# TYPE ") || line.hasPrefix("# HELP ") {
                let parts = line.dropFirst(7).split(separator: " ", maxSplits: 1).map(String.init)
                guard parts.count == 2 else { continue }
                if line.hasPrefix("# TYPE ") { types[parts[0]] = parts[1] } else { help[parts[0]] = parts[1] }
            } else if !line.hasPrefix("#"), let sample = Self.sample(line) {
                samples.append(sample)
            }
        }
    }

    /// `name{a="x",b="y"} value` (label values without escaped quotes, as the service writes them).
    private static func sample(_ line: String) -> Sample? {
        guard let space = line.lastIndex(of: " ") else { return nil }
        let series = line[..<space], value = String(line[line.index(after: space)...])
        guard let brace = series.firstIndex(of: "{") else { return Sample(name: String(series), labels: [:], value: value) }
        var labels: [String: String] = [:]
        let body = series[series.index(after: brace)..<series.index(before: series.endIndex)]
        var rest = Substring(body)
        while let equals = rest.firstIndex(of: "=") {
            let name = String(rest[..<equals]).trimmingCharacters(in: CharacterSet(charactersIn: ","))
            let afterQuote = rest.index(equals, offsetBy: 2)
            guard let close = rest[afterQuote...].firstIndex(of: "\"") else { return nil }
            labels[name] = String(rest[afterQuote..<close])
            rest = rest[rest.index(after: close)...]
        }
        return Sample(name: String(series[..<brace]), labels: labels, value: value)
    }
}
