/// How a run of text looks: attributes and an optional foreground colour.
public struct Style: Hashable, Sendable {
    public struct Attributes: OptionSet, Hashable, Sendable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }

        public static let bold = Attributes(rawValue: 1 << 0)
        public static let dim = Attributes(rawValue: 1 << 1)
        public static let underline = Attributes(rawValue: 1 << 2)
        public static let reverse = Attributes(rawValue: 1 << 3)
    }

    /// The few foreground colours the UI uses, all in the 16-colour palette so
    /// they follow the user's terminal theme.
    public enum Color: Hashable, Sendable, CaseIterable {
        case red, green, yellow, magenta, cyan, gray

        /// The SGR parameter. Gray is "bright black", which every terminal with
        /// 16 colours has.
        var parameter: Int {
            switch self {
            case .red: 31
            case .green: 32
            case .yellow: 33
            case .magenta: 35
            case .cyan: 36
            case .gray: 90
            }
        }
    }

    public var attributes: Attributes
    public var foreground: Color?

    public init(_ attributes: Attributes = [], foreground: Color? = nil) {
        self.attributes = attributes
        self.foreground = foreground
    }

    public static let plain = Style()
    public static let bold = Style(.bold)
    public static let dim = Style(.dim)
    public static let underline = Style(.underline)
    public static let reverse = Style(.reverse)

    public static func foreground(_ color: Color) -> Style { Style(foreground: color) }

    /// This style with `color` as its foreground.
    public func with(foreground color: Color?) -> Style {
        Style(attributes, foreground: color)
    }

    /// This style with `extra` attributes added.
    public func with(_ extra: Attributes) -> Style {
        Style(attributes.union(extra), foreground: foreground)
    }

    /// What of this style `mode` lets through.
    func effective(in mode: StyleMode) -> Style {
        switch mode {
        case .color: self
        case .monochrome: Style(attributes)
        case .plain: .plain
        }
    }

    /// Whether a space in this style looks like a plain space: colour, bold and
    /// dim do not show on blank cells, underline and reverse do.
    var isInvisibleOnBlanks: Bool {
        attributes.isDisjoint(with: [.underline, .reverse])
    }

    /// The SGR sequence that sets exactly this style from any other: a reset,
    /// then the attributes and colour.
    var selectGraphicRendition: String {
        var sequence = "\u{1B}[0"
        if attributes.contains(.bold) { sequence += ";1" }
        if attributes.contains(.dim) { sequence += ";2" }
        if attributes.contains(.underline) { sequence += ";4" }
        if attributes.contains(.reverse) { sequence += ";7" }
        if let foreground { sequence += ";\(foreground.parameter)" }
        return sequence + "m"
    }
}
