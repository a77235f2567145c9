// Files: export by download (a Blob URL of our own origin), import by reading a picked file.
export function download(name, text, type = "application/json") {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

// The file's text, or an error: "too_big" (checked before reading) or "unreadable".
export async function readFile(file, limit) {
  // Checked before reading: a file of a gigabyte is never read into memory.
  if (file.size > limit) return { error: "too_big", size: file.size };
  try {
    const text = await file.text();
    return text.length > limit ? { error: "too_big", size: file.size } : { text };
  } catch {
    return { error: "unreadable" };
  }
}
