// Types for `send` (its package ships none), as far as web/server.js uses it: a stream answering one
// request with a file under a root, Range requests included (the package's README documents these).
declare module 'send' {
  import type { IncomingMessage, ServerResponse } from 'node:http'

  interface SendOptions {
    root?: string
    /** Index files tried for a directory, in order; false: none. */
    index?: string | string[] | false
    cacheControl?: boolean
    etag?: boolean
    lastModified?: boolean
    dotfiles?: 'allow' | 'deny' | 'ignore'
    acceptRanges?: boolean
  }

  interface SendStream {
    /** An error with the HTTP status it means (404 for a missing file, 403 for a denied dotfile). */
    on(event: 'error', listener: (error: Error & { status?: number }) => void): this
    /** A directory was asked for without a trailing slash. */
    on(event: 'directory', listener: (res: ServerResponse, path: string) => void): this
    pipe(res: ServerResponse): ServerResponse
  }

  /** A stream sending the file at `path` (URL-encoded, relative to options.root) in answer to `req`. */
  export default function send(req: IncomingMessage, path: string, options?: SendOptions): SendStream
}
