/// What the listener and Alicia said and did while the backend runs, and the settings that can
/// change meanwhile: one value behind `DemoService.conversation`'s lock.
struct DemoConversation: Sendable {
    var proactive = ProactiveFeed.standard
    var history = DemoHistory.standard
    var replies: [DemoBackend.ReceivedReply] = []
    var reactions: [DemoBackend.ReceivedReaction] = []
    var episodeDay = EpisodeDayLog()
    /// The message number each chat `request_id` got: a resend gets the same reply.
    var chatRequests: [String: Int] = [:]
    var briefing = DemoBackend.BriefingState.ready
    var episodeDayFault: DemoBackend.EpisodeDayFault?
}
