// Copy buttons: <button data-copy="input-id">. Kept in a file: the CSP allows no inline script.
for (const button of document.querySelectorAll('button[data-copy]')) {
  button.addEventListener('click', async () => {
    const input = document.getElementById(button.dataset.copy)
    const status = button.parentElement.querySelector('.copy-status')
    try {
      await navigator.clipboard.writeText(input.value)
      if (status) status.textContent = 'Copied.'
    } catch {
      input.select()
      if (status) status.textContent = 'Press Ctrl+C (or ⌘C) to copy.'
    }
  })
}
