"""Sound bytes for the tests, made at run time (no binary files in the repository)."""

import io
import wave


def wav_bytes(seconds: float = 0.25, rate: int = 8000) -> bytes:
    """A silent mono 16-bit WAV of `seconds`; a low `rate` makes a long one small."""
    out = io.BytesIO()
    with wave.open(out, "wb") as sound:
        sound.setnchannels(1)
        sound.setsampwidth(2)
        sound.setframerate(rate)
        sound.writeframes(b"\0\0" * int(rate * seconds))
    return out.getvalue()


# An MPEG-1 Layer III frame header: 128 kbit/s, 44.1 kHz, stereo, no padding, no CRC; each
# frame is 417 bytes (144 * 128000 / 44100), holding 1152 samples (26 ms).
_MP3_FRAME = bytes([0xFF, 0xFB, 0x90, 0x00]) + bytes(413)


def mp3_bytes(frames: int = 40) -> bytes:
    """Silent MP3 frames written by hand, about 26 ms each."""
    return _MP3_FRAME * frames


def opus_bytes(seconds: float = 1.0) -> bytes:
    """An Ogg Opus stream of three pages written by hand (mutagen's OggPage adds the
    checksums): its header, its tags, and one audio page whose granule position gives the
    length."""
    import struct

    from mutagen.ogg import OggPage

    pre_skip = 312
    head = b"OpusHead" + struct.pack("<BBHIhB", 1, 1, pre_skip, 48000, 0, 0)
    tags = b"OpusTags" + struct.pack("<I", 4) + b"test" + struct.pack("<I", 0)
    # One 20 ms frame of silence (TOC byte 0xf8: CELT, full band, 20 ms, one frame).
    audio = b"\xf8\xff\xfe"
    pages = []
    for sequence, (packet, position) in enumerate(
        [(head, 0), (tags, 0), (audio, pre_skip + int(48000 * seconds))]
    ):
        page = OggPage()
        page.serial = 20261203
        page.sequence = sequence
        page.packets = [packet]
        page.position = position
        page.first = sequence == 0
        page.last = sequence == 2
        pages.append(page.write())
    return b"".join(pages)
