// Shared helpers of the cardgym pages: JSON requests, elements, pictures.
"use strict";

const cardgym = {
  // An element by id.
  $(id) { return document.getElementById(id); },

  // A new element with text.
  make(tag, text, className) {
    const element = document.createElement(tag);
    if (text !== undefined && text !== null) element.textContent = text;
    if (className) element.className = className;
    return element;
  },

  // Fetch JSON; throws an Error with the server's message on a refusal.
  async json(url, options) {
    const response = await fetch(url, options);
    let body = null;
    try { body = await response.json(); } catch (error) { body = null; }
    if (!response.ok) {
      const message = body && body.message ? body.message : `${response.status} ${response.statusText}`;
      throw new Error(message);
    }
    return body;
  },

  // POST a JSON object.
  post(url, data) {
    return cardgym.json(url, {method: "POST", headers: {"Content-Type": "application/json"},
                              body: JSON.stringify(data)});
  },

  // Show a picture from url in img (headers may carry a seat's token); keeps the
  // previous picture until the new one has arrived. The latest call wins: a picture
  // asked for earlier that arrives later is dropped.
  async picture(img, url, headers) {
    const ticket = (img.pictureTicket || 0) + 1;
    img.pictureTicket = ticket;
    const response = await fetch(url, {headers: headers || {}});
    if (!response.ok || img.pictureTicket !== ticket) return;
    const blob = await response.blob();
    if (img.pictureTicket !== ticket) return;
    const old = img.dataset.url;
    img.src = URL.createObjectURL(blob);
    img.dataset.url = img.src;
    img.dataset.loaded = url;
    if (old) URL.revokeObjectURL(old);
  },

  // Replace the items of a list with one <li> per text.
  fill(list, texts, className) {
    list.replaceChildren(...texts.map((text) => cardgym.make("li", text, className)));
  },

  // The table view's events as lines.
  eventLines(view) {
    return view.events.map((event) => event.text);
  },

  // A read of a file chosen in an <input type=file>, as JSON.
  async readJson(input) {
    const file = input.files && input.files[0];
    if (!file) return null;
    const text = await file.text();
    try { return JSON.parse(text); } catch (error) {
      throw new Error(`${file.name} is not a JSON file`);
    }
  },
};
