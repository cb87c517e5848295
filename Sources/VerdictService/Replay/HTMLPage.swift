/// A self-contained HTML document: the shell (language, viewport, title), one inline style sheet
/// with light and dark colours and print rules, and the body appended piece by piece.
struct HTMLPage {
    private var body: [String] = []
    private let title: String

    init(title: String) {
        self.title = title
    }

    mutating func append(_ html: String) {
        body.append(html)
    }

    func finish() -> String {
        """
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(HTMLText.escape(title))</title>
        <style>\(Self.styleSheet)</style>
        </head>
        <body>
        <main>
        \(body.joined(separator: "\n"))
        </main>
        </body>
        </html>

        """
    }

    static let styleSheet = """
        :root { color-scheme: light dark; --fg: #1d1d1f; --bg: #ffffff; --muted: #6e6e73; --line: #d2d2d7;
          --accent: #0a66c2; --changed: #fff4d6; --baseline: #8e8e93; --candidate: #0a66c2;
          --added: #1a7f37; --removed: #cf222e; --moved: #8250df; --edited: #9a6700; }
        @media (prefers-color-scheme: dark) { :root { --fg: #f5f5f7; --bg: #1c1c1e; --muted: #a1a1a6; --line: #3a3a3c;
          --accent: #64a8ff; --changed: #4a3c12; --baseline: #8e8e93; --candidate: #64a8ff;
          --added: #4ac26b; --removed: #ff7b72; --moved: #c297ff; --edited: #d4a72c; } }
        body { margin: 0; font: 15px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg); background: var(--bg); }
        main { max-width: 1100px; margin: 0 auto; padding: 1rem 1.25rem 3rem; }
        h1 { font-size: 1.6rem; margin: .5rem 0; } h2 { font-size: 1.2rem; margin-top: 2rem; border-bottom: 1px solid var(--line); }
        h3 { font-size: 1rem; }
        code, pre { font: 13px/1.4 ui-monospace, "SF Mono", Menlo, monospace; }
        pre { white-space: pre-wrap; overflow-wrap: anywhere; background: color-mix(in srgb, var(--line) 30%, transparent); padding: .5rem; }
        table { border-collapse: collapse; width: 100%; margin: .5rem 0; display: block; overflow-x: auto; }
        th, td { text-align: left; padding: .3rem .5rem; border-bottom: 1px solid var(--line); vertical-align: top; }
        td span[data-json], .matrix td { font-variant-numeric: tabular-nums; }
        .cards { display: flex; flex-wrap: wrap; gap: .75rem; }
        .card { border: 1px solid var(--line); border-radius: 8px; padding: .5rem 1rem; min-width: 7rem; }
        .figure { font-size: 1.6rem; font-weight: 600; }
        .changed, td.changed { background: var(--changed); }
        .matrix td, .matrix th { text-align: center; } .matrix th[scope="row"] { text-align: left; }
        .muted { color: var(--muted); }
        .beside { display: grid; grid-template-columns: minmax(0, 3fr) minmax(16rem, 2fr); gap: 0 1.5rem; align-items: start; }
        @media (max-width: 820px) { .beside { grid-template-columns: minmax(0, 1fr); } }
        ol.changes { list-style: none; padding: 0; margin: .5rem 0; }
        ol.changes li { --kind: var(--edited); border-left: 3px solid var(--kind); padding: .2rem .6rem; margin: 0 0 .6rem;
          overflow-wrap: anywhere; }
        ol.changes li.change-added { --kind: var(--added); } ol.changes li.change-removed { --kind: var(--removed); }
        ol.changes li.change-moved { --kind: var(--moved); }
        .tag { color: var(--kind); font-size: .75rem; font-weight: 600; text-transform: uppercase; letter-spacing: .03em; }
        .where code { color: var(--muted); }
        a { color: var(--accent); }
        svg text { fill: var(--fg); font-size: 11px; }
        .bar-baseline { fill: var(--baseline); } .bar-candidate { fill: var(--candidate); }
        .legend span { display: inline-block; width: .8rem; height: .8rem; margin: 0 .3rem 0 1rem; vertical-align: middle; }
        .swatch-baseline { background: var(--baseline); } .swatch-candidate { background: var(--candidate); }
        details { margin: .4rem 0; } summary { cursor: pointer; }
        @media print { body { font-size: 11pt; background: #fff; color: #000; } main { max-width: none; } .beside { display: block; }
          details { break-inside: avoid; } section { break-inside: auto; } a { color: #000; } }
        """
}
