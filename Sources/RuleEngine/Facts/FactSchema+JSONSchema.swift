extension FactSchema {
    /// A JSON Schema (draft 2020-12) of a facts document, for fixture files and editors. Scalars
    /// accept both the JSON shape and the YAML test-data spelling (`"59.99 USD"`, `"400d"`).
    public func jsonSchema() -> String {
        var definitions: [(String, String)] = []
        for record in records where record.name != document.name {
            definitions.append((record.name, recordSchema(record)))
        }
        let defs = definitions.map { "\"\($0.0)\": \($0.1)" }.joined(separator: ",\n    ")
        return """
        {
          "$schema": "https://json-schema.org/draft/2020-12/schema",
          "title": "Verdict facts document",
          "type": "object",
          "additionalProperties": false,
          "properties": \(properties(of: document)),
          "$defs": {
            \(defs)
          }
        }
        """
    }

    private func recordSchema(_ record: RuleRecord) -> String {
        "{\"type\": \"object\", \"additionalProperties\": false, \"properties\": \(properties(of: record))}"
    }

    private func properties(of record: RuleRecord) -> String {
        let entries = record.fields.map { field -> String in
            var schema = typeSchema(field.type.unwrapped)
            schema.removeLast()
            schema += ", \"description\": \(quote(field.doc + (field.isOptional ? " (optional)" : "")))}"
            return "\(quote(field.name)): \(schema)"
        }
        return "{" + entries.joined(separator: ", ") + "}"
    }

    private func typeSchema(_ type: RuleType) -> String {
        switch type {
        case .bool: return "{\"type\": [\"boolean\", \"string\"]}"
        case .int: return "{\"type\": [\"integer\", \"string\"]}"
        case .string: return "{\"type\": [\"string\", \"integer\"]}"
        case .money:
            return "{\"anyOf\": [{\"type\": \"string\", \"pattern\": \"^-?[0-9]+(\\\\.[0-9]{1,3})? [A-Z]{3}$\"}, "
                + "{\"type\": \"object\", \"required\": [\"milliunits\", \"currency\"], \"additionalProperties\": false, "
                + "\"properties\": {\"milliunits\": {\"type\": \"integer\"}, \"currency\": {\"type\": \"string\", \"pattern\": \"^[A-Z]{3}$\"}}}]}"
        case .duration: return "{\"type\": [\"string\", \"integer\"], \"pattern\": \"^-?([0-9]+(d|h|m|s|ms))+$|^-?[0-9]+$\"}"
        case .timestamp: return "{\"type\": [\"string\", \"integer\"]}"
        case .enumeration(let ruleEnum):
            let values = ruleEnum.cases.flatMap { [$0.name, $0.wireValue] }.filter { !$0.isEmpty }
            var unique: [String] = []
            for value in values where !unique.contains(value) { unique.append(value) }
            let integers = ruleEnum.cases.compactMap { Int($0.wireValue) }.map(String.init)
            let listed = unique.map(quote) + integers
            return "{\"enum\": [" + listed.joined(separator: ", ") + "]}"
        case .list(let element): return "{\"type\": \"array\", \"items\": \(typeSchema(element))}"
        case .map(.money):
            // A per-currency money table: keys are ISO 4217 codes.
            return "{\"type\": \"object\", \"propertyNames\": {\"pattern\": \"^[A-Z]{3}$\"}, \"additionalProperties\": \(typeSchema(.money))}"
        case .map(let value): return "{\"type\": \"object\", \"additionalProperties\": \(typeSchema(value))}"
        case .record(let record): return "{\"$ref\": \"#/$defs/\(record.name)\"}"
        case .optional(let inner): return typeSchema(inner)
        }
    }

    private func quote(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
