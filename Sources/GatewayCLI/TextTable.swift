/// A plain-text table whose columns line up: a header row and data rows, each cell padded to its
/// column's width, optionally coloured with ANSI escapes that do not count towards the width.
struct TextTable {
    enum Alignment {
        case left, right
    }

    /// A colour for one cell; only used when the output may be coloured.
    enum Colour: String {
        case green = "32"
        case red = "31"
        case dim = "2"
        case bold = "1"
    }

    struct Column {
        var title: String
        var alignment: Alignment = .left
    }

    struct Cell {
        var text: String
        var colour: Colour?

        init(_ text: String, _ colour: Colour? = nil) {
            self.text = text
            self.colour = colour
        }
    }

    var columns: [Column]
    var rows: [[Cell]] = []

    /// The table as lines without trailing spaces; `colour` adds ANSI escapes.
    func render(colour: Bool) -> String {
        var widths = columns.map(\.title.count)
        for row in rows {
            for (index, cell) in row.enumerated() where index < widths.count {
                widths[index] = max(widths[index], cell.text.count)
            }
        }
        let header = columns.map { Cell($0.title, .bold) }
        return ([header] + rows).map { row in
            var line = ""
            for (index, column) in columns.enumerated() {
                let cell = index < row.count ? row[index] : Cell("")
                let padding = String(repeating: " ", count: max(0, widths[index] - cell.text.count))
                let text = colour ? cell.colour.map { "\u{1B}[\($0.rawValue)m\(cell.text)\u{1B}[0m" } ?? cell.text
                    : cell.text
                if index > 0 { line += "  " }
                line += column.alignment == .left ? text + padding : padding + text
            }
            while line.hasSuffix(" ") { line.removeLast() }
            return line
        }.joined(separator: "\n")
    }
}
