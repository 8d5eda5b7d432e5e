/// How often a feed says it changes, in seconds: what a refresh schedule can start from.
/// `podcast:updateFrequency` carries an iCalendar `rrule` (`FREQ=WEEKLY;INTERVAL=2`,
/// `FREQ=WEEKLY;BYDAY=MO,WE,FR`) and a text for people (`Weekly`); RSS's `ttl` is minutes; the
/// syndication module says a period and how many times in it.
enum UpdateFrequency {
    static let periods: [String: Int64] = [
        "secondly": 1, "minutely": 60, "hourly": 3600, "daily": 86_400, "weekly": 604_800,
        // The mean Gregorian month and year.
        "monthly": 2_629_746, "yearly": 31_556_952,
    ]

    /// The period an rrule repeats at; nil when it names no frequency this knows.
    static func seconds(rrule: String) -> Int64? {
        var fields: [String: String] = [:]
        for part in rrule.split(separator: ";") {
            let pair = part.split(separator: "=", maxSplits: 1)
            if pair.count == 2 { fields[pair[0].trimmingSpaces.uppercased()] = pair[1].trimmingSpaces.uppercased() }
        }
        guard let frequency = fields["FREQ"], let period = periods[frequency.lowercased()] else { return nil }
        let interval = fields["INTERVAL"].flatMap { Int64($0) }.flatMap { $0 >= 1 && $0 <= 1000 ? $0 : nil } ?? 1
        if let days = fields["BYDAY"], frequency == "WEEKLY" || frequency == "DAILY" {
            let count = Int64(days.split(separator: ",").count)
            if count > 0 { return 604_800 * interval / count }
        }
        return period * interval
    }

    /// The words a feed writes for people (`Daily`, `Weekly`, `every two weeks`).
    static func seconds(text: String) -> Int64? {
        let words = PlainText.collapsingSpaces(text.lowercased())
        switch words {
        case "hourly", "every hour": return 3600
        case "daily", "every day": return 86_400
        case "weekly", "every week": return 604_800
        case "biweekly", "bi-weekly", "fortnightly", "every two weeks", "every other week": return 1_209_600
        case "monthly", "every month": return 2_629_746
        case "yearly", "annually", "every year": return 31_556_952
        default: return nil
        }
    }

    /// `sy:updatePeriod` and `sy:updateFrequency` (times per period, 1 by default).
    static func seconds(syndicationPeriod period: String, frequency: String?) -> Int64? {
        guard let seconds = periods[period.trimmingSpaces.lowercased()] else { return nil }
        let times = frequency.flatMap { Int64($0.trimmingSpaces) }.flatMap { $0 >= 1 && $0 <= 100_000 ? $0 : nil } ?? 1
        return max(1, seconds / times)
    }
}
