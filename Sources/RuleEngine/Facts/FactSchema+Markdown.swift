extension FactSchema {
    /// The fact reference for the README: one table per record (field, type, presence, meaning)
    /// and one per enum (rule name, Apple's wire value).
    public func markdownReference() -> String {
        var lines: [String] = [
            "## Fact reference",
            "",
            "Generated from `FactSchema` (Sources/RuleEngine/Facts). Types: `money` is an exact amount with an",
            "ISO 4217 currency (`money('9.99 USD')`), `duration` and `timestamp` are exact to the millisecond",
            "(`days(30)`, `date('2026-12-01')`), enum values are written bare (`event.subtype == AUTO_RENEW_DISABLED`).",
            "**optional** facts may be missing: read them only where `has(...)` holds (the checker enforces it).",
            "Other facts are always supplied when their section applies; lists and tables that are not supplied are empty.",
            "`now` is `event.signedDate` (tests and replays may set it).",
            "",
        ]
        for record in records {
            let path = record.name == document.name ? "(document roots)" : "`\(record.name)`"
            lines.append("### \(record.name == document.name ? "Roots" : record.name) \(path)")
            lines.append("")
            if record.fields.isEmpty {
                lines.append("No fields declared (declare them under `attributes:` in the rule file).")
                lines.append("")
                continue
            }
            lines.append("| Field | Type | Presence | Meaning |")
            lines.append("|---|---|---|---|")
            for field in record.fields {
                let presence = field.isOptional ? "optional" : "always"
                lines.append("| `\(field.name)` | `\(field.type.unwrapped)` | \(presence) | \(field.doc) |")
            }
            lines.append("")
        }
        lines.append("### Enum values")
        lines.append("")
        lines.append("Rules use the name; facts documents may use either the name or Apple's wire value.")
        lines.append("")
        for ruleEnum in enums + [RuleEnum.refundPreference] {
            let mapped = ruleEnum.cases.map { item in
                item.name == item.wireValue ? "`\(item.name)`" : "`\(item.name)` (Apple: \(item.wireValue.isEmpty ? "no value" : "`\(item.wireValue)`"))"
            }
            lines.append("- **\(ruleEnum.name)**: " + mapped.joined(separator: ", "))
        }
        lines.append("")
        return lines.joined(separator: "\n")
    }
}
