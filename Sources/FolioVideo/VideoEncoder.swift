import CVideoEncoder
import FolioPixels

/// Why a video could not be made: one line, said after the output's path.
public struct VideoError: Error, Equatable, Sendable, CustomStringConvertible {
    public var description: String

    public init(_ description: String) {
        self.description = description
    }
}

/// H.264 in MP4 through FFmpeg's libraries, frame after frame into a file descriptor: memory is
/// a frame and the encoder's few frames of lookahead, however long the video.
public final class VideoEncoder {
    private var video: OpaquePointer?
    public let width: Int
    public let height: Int

    /// An encoder writing to `descriptor` (open for reading and writing, empty); `name` is the
    /// name the muxer reads it back by.
    public init(descriptor: Int32, name: String, width: Int, height: Int, fps: Int) throws(VideoError) {
        var error = [CChar](repeating: 0, count: 512)
        guard let video = folio_video_open(descriptor, name, Int32(width), Int32(height), Int32(fps), &error, error.count) else {
            throw VideoError(Self.text(error))
        }
        self.video = video
        self.width = width
        self.height = height
    }

    deinit {
        folio_video_free(video)
    }

    /// Encodes `frame`, which must be `width`×`height`.
    public func append(_ frame: Bitmap) throws(VideoError) {
        guard let video, frame.width == width, frame.height == height else { throw VideoError("a frame of another size") }
        var error = [CChar](repeating: 0, count: 512)
        let pixels = UnsafeRawPointer(frame.pixels).assumingMemoryBound(to: UInt8.self)
        guard folio_video_append(video, pixels, Int32(frame.stride), &error, error.count) == 0 else { throw VideoError(Self.text(error)) }
    }

    /// Writes what the encoder holds and the MP4's index; the encoder is done either way.
    public func finish() throws(VideoError) {
        guard let video else { return }
        self.video = nil
        var error = [CChar](repeating: 0, count: 512)
        guard folio_video_finish(video, &error, error.count) == 0 else { throw VideoError(Self.text(error)) }
    }

    private static func text(_ error: [CChar]) -> String {
        String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
