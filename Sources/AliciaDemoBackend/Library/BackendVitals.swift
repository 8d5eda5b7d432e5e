/// The backend's vitals for `/api/health`: fixed, plausible numbers.
enum BackendVitals {
    static let all: [DemoAPI.Vital] = [
        .init(name: "Memory", value: 0.42, display: "42 %", symbol: "memorychip", hue: 0.58),
        .init(name: "Mood", value: 0.81, display: "Cheerful", symbol: "face.smiling", hue: 0.12),
        .init(name: "Energy", value: 0.67, display: "Rested", symbol: "bolt.heart", hue: 0.33),
        .init(name: "Library", value: 0.9, display: "6 episodes", symbol: "books.vertical", hue: 0.75),
        .init(name: "Latency", value: 0.05, display: "3 ms (loopback)", symbol: "speedometer", hue: 0.45),
    ]
}
