import AliciaJSON
@testable import AliciaSync
import Testing

/// The API's JSON read and written, without a server: what a hostile or sloppy reply leaves out.
@Suite struct SyncAPITests {
    @Test func aReplyOfActionsKeepsOnlyActions() throws {
        let reply = JSONValue(parsing: Array("""
            {"actions": [
              {"podcast": "http://feeds.example/a.xml", "episode": "http://media.example/1.mp3", "guid": "g1",
               "action": "PLAY", "timestamp": "2026-12-07T10:00:00", "started": 10, "position": 754, "total": 3600, "device": "phone"},
              {"podcast": "file:///etc/passwd", "episode": "http://media.example/2.mp3", "action": "play", "timestamp": "2026-12-07T10:00:00"},
              {"podcast": "http://feeds.example/a.xml", "episode": "http://media.example/3.mp3", "action": "listen", "timestamp": "2026-12-07T10:00:00"},
              {"podcast": "http://feeds.example/a.xml", "episode": "http://media.example/4.mp3", "action": "download", "timestamp": "yesterday"},
              {"podcast": "http://feeds.example/a.xml", "episode": "http://media.example/5.mp3", "action": "new", "timestamp": "2026-12-07T10:00:01.5Z",
               "position": -1}
            ], "timestamp": 17}
            """.utf8))
        let entries = try #require(reply?["actions"].flatMap { value -> [JSONValue]? in
            if case .array(let items) = value { return items } else { return nil }
        })
        let actions = entries.compactMap(SyncClient.action)
        #expect(actions.count == 2)
        #expect(actions[0] == EpisodeAction(podcast: "http://feeds.example/a.xml", episode: "http://media.example/1.mp3", guid: "g1",
                                            action: .play, timestamp: "2026-12-07T10:00:00", started: 10, position: 754, total: 3600,
                                            device: "phone"))
        #expect(actions[0].milliseconds == 1_796_637_600_000)
        #expect(actions[1].action == .new && actions[1].position == nil && actions[1].milliseconds == 1_796_637_601_500)
        #expect(SyncClient.timestamp(try #require(reply)) == 17)
    }

    @Test func anUploadedActionIsTheAPIsShape() throws {
        let action = EpisodeAction(podcast: "http://f/a.xml", episode: "http://m/1.mp3", guid: "g", action: .play,
                                   timestamp: EpisodeAction.timestamp(1_796_637_600), started: 0, position: 754, total: 3600, device: "desk")
        let text = String(decoding: try #require(SyncClient.json(action).text()), as: UTF8.self)
        #expect(text == #"{"podcast":"http://f/a.xml","episode":"http://m/1.mp3","guid":"g","action":"play","timestamp":"2026-12-07T10:00:00","started":0,"position":754,"total":3600,"device":"desk"}"#)
    }

    @Test func updatedURLsAndSubscriptionListsKeepOnlyWebURLs() throws {
        let reply = try #require(JSONValue(parsing: Array("""
            {"timestamp": 5, "update_urls": [["http://a/feed", "https://a/feed"], ["http://b", "file:///etc/passwd"], ["x"], ["http://c", "http://c"]],
             "add": ["http://a/feed", "/etc/passwd", 7, "https://d/feed"]}
            """.utf8)))
        #expect(SyncClient.updatedURLs(reply).map { [$0.0, $0.1] } == [["http://a/feed", "https://a/feed"]])
        #expect(SyncClient.urls(reply["add"]) == ["http://a/feed", "https://d/feed"])
    }

    @Test func eachDialectHasItsPaths() {
        #expect(SyncDialect.gpodderNet.path(.subscriptions(since: 12), user: "ann", device: "desk") == "/api/2/subscriptions/ann/desk.json?since=12")
        #expect(SyncDialect.gpodderNet.path(.uploadActions, user: "ann", device: "desk") == "/api/2/episodes/ann.json")
        #expect(SyncDialect.nextcloud.path(.actions(since: 3), user: "ann", device: "desk") == "/index.php/apps/gpoddersync/episode_action?since=3")
        #expect(SyncDialect.nextcloud.path(.device, user: "ann", device: "desk") == nil)
    }

    @Test func anAccountNeverShowsItsPasswordAndChecksItsServer() throws {
        let account = SyncAccount(server: "https://sync.example", user: "ann", device: "desk", password: "hunter2", dialect: .nextcloud)
        #expect(!account.description.contains("hunter2") && account.description.contains("***"))
        #expect(try SyncAccount.serverURL(" https://sync.example/base/ ") == "https://sync.example/base")
        #expect(throws: SyncError.self) { try SyncAccount.serverURL("https://ann:pw@sync.example") }
        // A password typed into a URL that is refused for another reason is not said back either.
        let refused = try #require(throws: SyncError.self) { try SyncAccount.serverURL("ftp://ann:pw-9c@sync.example") }
        #expect(!refused.message.contains("pw-9c"))
        #expect(throws: SyncError.self) { try SyncAccount.serverURL("ftp://sync.example") }
        #expect(throws: SyncError.self) { try SyncClient(SyncAccount(server: "http://s", user: "a/b", device: "d", password: "p", dialect: .gpodderNet)) }
    }
}
